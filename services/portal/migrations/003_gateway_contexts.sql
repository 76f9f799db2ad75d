-- Issue 17: a captive device's gateway context, kept server-side for the sign-in that follows,
-- behind the short-lived cookie `gw` (the key is a SHA-256 of the cookie). No MAC address: only
-- the deviceRef, a keyed HMAC of (gateway id, MAC).
CREATE TABLE gateway_contexts (
  id_hash    text PRIMARY KEY,
  style      text NOT NULL,
  nas_id     text NOT NULL,
  device_ref text NOT NULL,
  login_url  text NOT NULL,
  challenge  text,
  return_url text,
  expires_at timestamptz NOT NULL
);
CREATE INDEX gateway_contexts_expiry ON gateway_contexts (expires_at);
-- The gateway a sign-in went through (the stored context above, without its key), or NULL.
ALTER TABLE portal_sessions ADD COLUMN gateway jsonb;
