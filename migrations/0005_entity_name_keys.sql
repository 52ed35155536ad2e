-- Entity names folded for case-insensitive lookups beyond ASCII (SQLite's NOCASE folds ASCII only): every
-- write sets name_key to the name in Unicode lower case (NFKC). Rows written before are folded here with
-- lower(), which is exact for ASCII names; importing a non-ASCII name again refolds it.
ALTER TABLE entities ADD COLUMN name_key TEXT NOT NULL DEFAULT '';
UPDATE entities SET name_key = lower(name);
CREATE INDEX entities_by_name_key ON entities (name_key);
