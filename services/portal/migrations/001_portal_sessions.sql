-- Portal sessions behind the cookie `sid` (spec 1, 2.4). The key is a SHA-256 of the cookie, so a
-- copy of the table hands out no session; tokens are AES-256-GCM ciphertexts (README).
CREATE TABLE portal_sessions (
  sid_hash           text PRIMARY KEY,
  subject_id         text NOT NULL,
  client             text NOT NULL,
  access_token_enc   text NOT NULL,
  refresh_token_enc  text,
  claims             jsonb NOT NULL,
  entitlement        jsonb NOT NULL,
  network_session_id text NOT NULL,
  created_at         timestamptz NOT NULL,
  expires_at         timestamptz NOT NULL
);
CREATE INDEX portal_sessions_expiry ON portal_sessions (expires_at);
