-- The change feed of the content API (GET /api/v3/content/changes) and the source of webhook events: one row per
-- entity and brand it belongs to (its own ID for a brand, NULL for a destination or an airport), holding its latest
-- change. Every change deletes the row and writes it again, so its `seq` moves past everything written before and a
-- reader paging by `seq` meets each entity once, in its latest state. AUTOINCREMENT never reuses a `seq`.
CREATE TABLE content_changes (
  seq        INTEGER PRIMARY KEY AUTOINCREMENT,
  entity_id  TEXT NOT NULL,
  kind       TEXT NOT NULL,
  brand_id   TEXT,
  change     TEXT NOT NULL CHECK (change IN ('upserted', 'removed')),
  changed_at TEXT NOT NULL
);
CREATE INDEX content_changes_by_entity ON content_changes (entity_id);
CREATE INDEX content_changes_by_brand ON content_changes (brand_id, seq);
CREATE INDEX content_changes_by_age ON content_changes (change, changed_at);

-- One row: the feed's identity (a cursor of another database is refused) and the newest `seq` of the removals the
-- daily upkeep has deleted (a cursor before it may have missed one, so it must resynchronise).
CREATE TABLE content_change_feed (
  id             INTEGER PRIMARY KEY CHECK (id = 1),
  feed_id        TEXT NOT NULL,
  pruned_through INTEGER NOT NULL
);
INSERT INTO content_change_feed (id, feed_id, pruned_through) VALUES (1, lower(hex(randomblob(8))), 0);

-- What is stored now, as it was last changed.
INSERT INTO content_changes (entity_id, kind, brand_id, change, changed_at)
SELECT id, kind, CASE kind WHEN 'brand' THEN id ELSE brand_id END, 'upserted', strftime('%Y-%m-%dT%H:%M:%fZ', updated_at)
FROM entities ORDER BY updated_at, id;

CREATE TRIGGER entities_change_insert AFTER INSERT ON entities BEGIN
  DELETE FROM content_changes WHERE entity_id = NEW.id AND brand_id IS (CASE NEW.kind WHEN 'brand' THEN NEW.id ELSE NEW.brand_id END);
  INSERT INTO content_changes (entity_id, kind, brand_id, change, changed_at)
  VALUES (NEW.id, NEW.kind, CASE NEW.kind WHEN 'brand' THEN NEW.id ELSE NEW.brand_id END, 'upserted', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
END;

-- Only what a feed shows counts: `search reindex` rewrites name keys and changes nothing a partner sees. An FAQ change
-- always moves its entity's `updated_at` (the import plan does), so it arrives here through the entity.
CREATE TRIGGER entities_change_update AFTER UPDATE ON entities
WHEN OLD.kind IS NOT NEW.kind OR OLD.name IS NOT NEW.name OR OLD.brand_id IS NOT NEW.brand_id
  OR OLD.property_id IS NOT NEW.property_id OR OLD.url IS NOT NEW.url OR OLD.updated_at IS NOT NEW.updated_at
BEGIN
  -- A property that moves to another brand is removed from the old brand's feed.
  DELETE FROM content_changes WHERE entity_id = OLD.id AND brand_id = OLD.brand_id AND OLD.brand_id IS NOT NEW.brand_id;
  INSERT INTO content_changes (entity_id, kind, brand_id, change, changed_at)
  SELECT OLD.id, OLD.kind, OLD.brand_id, 'removed', strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
  WHERE OLD.brand_id IS NOT NULL AND OLD.brand_id IS NOT NEW.brand_id;
  DELETE FROM content_changes WHERE entity_id = NEW.id AND brand_id IS (CASE NEW.kind WHEN 'brand' THEN NEW.id ELSE NEW.brand_id END);
  INSERT INTO content_changes (entity_id, kind, brand_id, change, changed_at)
  VALUES (NEW.id, NEW.kind, CASE NEW.kind WHEN 'brand' THEN NEW.id ELSE NEW.brand_id END, 'upserted', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
END;

-- Also for the properties a brand's removal takes with it (ON DELETE CASCADE runs this trigger for each).
CREATE TRIGGER entities_change_delete AFTER DELETE ON entities BEGIN
  DELETE FROM content_changes WHERE entity_id = OLD.id AND brand_id IS (CASE OLD.kind WHEN 'brand' THEN OLD.id ELSE OLD.brand_id END);
  INSERT INTO content_changes (entity_id, kind, brand_id, change, changed_at)
  VALUES (OLD.id, OLD.kind, CASE OLD.kind WHEN 'brand' THEN OLD.id ELSE OLD.brand_id END, 'removed', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
END;
