-- Issue 27 item 3: a CoA-Request when a running session's limits change (the session was granted
-- again under another entitlement), queued like a Disconnect: due time, attempts, final answer.
ALTER TABLE connections ADD COLUMN coa_status text CHECK (coa_status IN ('PENDING', 'ACKED', 'NAKED', 'NO_ANSWER'));
ALTER TABLE connections ADD COLUMN coa_next_at timestamptz;
ALTER TABLE connections ADD COLUMN coa_attempts integer NOT NULL DEFAULT 0;
CREATE INDEX connections_coa_due ON connections (coa_next_at) WHERE coa_status = 'PENDING';
