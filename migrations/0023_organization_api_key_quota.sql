-- The most requests an hour an organization's partner keys may add up to (the hourly limits of its keys that are
-- neither revoked nor expired), set by the operator: the organization's administrators issue and change keys in the
-- content console within it, never past it. A low default; the operator raises it per organization.
ALTER TABLE organizations ADD COLUMN api_key_quota INTEGER NOT NULL DEFAULT 10000;
