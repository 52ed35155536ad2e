-- An entity's own public page (a hotel's website), optional: the FAQ feed's about.url and the link an
-- assistant cites. Written by imports only; null until a record names one.
ALTER TABLE entities ADD COLUMN url TEXT;
