-- Device credentials for 802.1X (EAP-TTLS with inner PAP): a random user name and password issued
-- once to a signed-in person's device, bound to the network session it was issued under (its
-- person, entitlement and expiry are the session's). Only an HMAC of each is kept (decision 0096).
CREATE TABLE device_credentials (
  device_id text PRIMARY KEY,
  username_hash text NOT NULL UNIQUE,
  password_hash text NOT NULL,
  session_id text NOT NULL,
  label text NOT NULL,
  created_at timestamptz NOT NULL,
  removed_at timestamptz
);
CREATE INDEX device_credentials_by_session ON device_credentials (session_id);
