-- A console person an administrator disabled: they can no longer sign in, and their sessions were ended when it
-- happened. Null while they may sign in.
ALTER TABLE people ADD COLUMN disabled_at TEXT;
