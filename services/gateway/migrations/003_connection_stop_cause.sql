-- Issue 27: why a connection ended, as far as the platform knows: the NAS's Acct-Terminate-Cause
-- on its Stop, NAS-Reboot on its Accounting-On/Off, Stale when its accounting fell silent.
ALTER TABLE connections ADD COLUMN stop_cause text;
CREATE INDEX connections_open_by_nas ON connections (nas_id, updated_at) WHERE stopped_at IS NULL;
