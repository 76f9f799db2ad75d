-- The usage each connection reported, sent on to the session service's allowance counters.
-- usage_key names the connection there for good: a NAS reusing its Acct-Session-Id after a reboot
-- makes a new row (connection-log.ts), so a new key, and its counters start again from zero.
-- usage_sent_* are the totals the session service acknowledged: a connection whose counters
-- passed them is due (a lost answer sends them again, which adds nothing there).
ALTER TABLE connections ADD COLUMN usage_key uuid NOT NULL DEFAULT gen_random_uuid();
ALTER TABLE connections ADD COLUMN usage_sent_octets bigint NOT NULL DEFAULT 0;
ALTER TABLE connections ADD COLUMN usage_sent_seconds bigint NOT NULL DEFAULT 0;
CREATE INDEX connections_usage_due ON connections (updated_at)
  WHERE input_octets + output_octets > usage_sent_octets OR session_time > usage_sent_seconds;
