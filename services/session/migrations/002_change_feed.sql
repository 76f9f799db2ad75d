-- The change feed (GET /api/v1/sessions/changes): each event remembers the transaction that wrote
-- it. Ids come from a sequence and are drawn before commit, so on a PostgreSQL server a reader
-- ordering by id alone could pass a row whose transaction commits later. The feed orders by
-- (transaction, id) and shows only transactions older than every one still running.
ALTER TABLE session_events ADD COLUMN tx xid8 NOT NULL DEFAULT pg_current_xact_id();
CREATE INDEX session_events_by_tx ON session_events (tx, id);
