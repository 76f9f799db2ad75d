-- The network session as last read from the session service (spec 2.7), answered when the
-- session service cannot be reached, so a session read stays a PortalSession (spec 4.1: always
-- 200) without inventing a state. NULL for sign-ins from before this column.
ALTER TABLE portal_sessions ADD COLUMN network_session jsonb;
