-- The FAQs an older analysis wrote, found without reading the rest: the scheduled upkeep (src/upkeep.ts) analyses
-- them again, a bounded step at a time, whenever src/search/analyze.ts raises ANALYZER_VERSION.
CREATE INDEX faqs_by_analyzer ON faqs (analyzer, id);
