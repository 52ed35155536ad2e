-- The content version keys every cached content response. A counter alone can move backwards: restoring a
-- backup (D1 Time Travel, an import into an emptied database) brings back an older count, and the next
-- change would reuse a number whose cached bodies hold what was current before the restore. Every change
-- therefore also draws a new random epoch; cache keys carry both, so no key is ever reused for other content.
ALTER TABLE content_version ADD COLUMN epoch TEXT NOT NULL DEFAULT '';
UPDATE content_version SET epoch = lower(hex(randomblob(8)));
DROP TRIGGER entities_version_insert;
DROP TRIGGER entities_version_update;
DROP TRIGGER entities_version_delete;
DROP TRIGGER faqs_version_insert;
DROP TRIGGER faqs_version_update;
DROP TRIGGER faqs_version_delete;
CREATE TRIGGER entities_version_insert AFTER INSERT ON entities BEGIN UPDATE content_version SET version = version + 1, epoch = lower(hex(randomblob(8))); END;
CREATE TRIGGER entities_version_update AFTER UPDATE ON entities BEGIN UPDATE content_version SET version = version + 1, epoch = lower(hex(randomblob(8))); END;
CREATE TRIGGER entities_version_delete AFTER DELETE ON entities BEGIN UPDATE content_version SET version = version + 1, epoch = lower(hex(randomblob(8))); END;
CREATE TRIGGER faqs_version_insert AFTER INSERT ON faqs BEGIN UPDATE content_version SET version = version + 1, epoch = lower(hex(randomblob(8))); END;
CREATE TRIGGER faqs_version_update AFTER UPDATE ON faqs BEGIN UPDATE content_version SET version = version + 1, epoch = lower(hex(randomblob(8))); END;
CREATE TRIGGER faqs_version_delete AFTER DELETE ON faqs BEGIN UPDATE content_version SET version = version + 1, epoch = lower(hex(randomblob(8))); END;
