-- The organization an API key was issued for, when it was: that organization's administrators see the key, its use
-- this hour, and may change its limit or revoke it in the content console. A key of no organization (every key
-- issued before this migration, and any the operator issues without one) stays the operator's alone. Deleting an
-- organization leaves its keys working and hands them back to the operator.
ALTER TABLE api_keys ADD COLUMN organization_id TEXT REFERENCES organizations (id) ON DELETE SET NULL;
CREATE INDEX api_keys_by_organization ON api_keys (organization_id, created_at);
