-- One device credential, one device at a time (decision 0113): an 802.1X connection records the
-- credential its Accept carried (Chargeable-User-Identity, which the NAS echoes in accounting) and
-- its calling station as a keyed HMAC (never the MAC itself), so that an authentication of the
-- credential from another station while this connection is live can be refused.
ALTER TABLE connections ADD COLUMN device_id text;
ALTER TABLE connections ADD COLUMN station_ref text;
CREATE INDEX connections_live_device ON connections (device_id) WHERE device_id IS NOT NULL AND stopped_at IS NULL;
