-- Issue 30: the change feed wakes its followers instead of being polled. Every session event
-- written notifies the channel `session_events` when its transaction commits (a NOTIFY waits for
-- the commit, is dropped on rollback, and is sent once per transaction however many rows
-- notified), on PGlite as on a server, and from any instance of the session service. Per row, not
-- per statement: a statement trigger fires also for an INSERT of no rows, and the feed's own
-- expiry sweep is such a statement on every read.
CREATE FUNCTION session_events_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('session_events', '');
  RETURN NULL;
END;
$$;
CREATE TRIGGER session_events_notify AFTER INSERT ON session_events FOR EACH ROW EXECUTE FUNCTION session_events_notify();
