-- What the latest Access-Accept of a session at a NAS gave its connection: Session-Timeout and
-- the volume cap of the controller's attribute (NULL: none sent), kept on a used credential of
-- that session and NAS (given_at: when). A controller that takes no CoA keeps these caps while
-- the connection runs; when the person's allowance shrinks below them, the gateway sends a
-- Disconnect so that the next authentication carries the lower limit. No row with given_at: not
-- recorded (an accept made before these columns), never taken for a shrink.
ALTER TABLE credentials ADD COLUMN given_seconds integer;
ALTER TABLE credentials ADD COLUMN given_octets bigint;
ALTER TABLE credentials ADD COLUMN given_at timestamptz;
