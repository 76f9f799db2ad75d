-- One-time credentials (issue 17): only a hash of the username is kept; the password is derived
-- from it with CREDENTIAL_KEY when checked and never stored.
CREATE TABLE credentials (
  username_hash  text PRIMARY KEY,
  session_id     text NOT NULL,
  device_ref     text NOT NULL,
  nas_id         text NOT NULL,
  issued_at      timestamptz NOT NULL,
  expires_at     timestamptz NOT NULL,
  used_at        timestamptz,
  revoked_at     timestamptz
);
CREATE INDEX credentials_by_session ON credentials (session_id);

-- Network sessions as the gateways report them (RADIUS accounting), one row per gateway session.
CREATE TABLE connections (
  nas_id               text NOT NULL,
  acct_session_id      text NOT NULL,
  session_id           text NOT NULL,
  username_hash        text,
  started_at           timestamptz NOT NULL,
  updated_at           timestamptz NOT NULL,
  stopped_at           timestamptz,
  input_octets         bigint NOT NULL DEFAULT 0,
  output_octets        bigint NOT NULL DEFAULT 0,
  session_time         integer NOT NULL DEFAULT 0,
  -- RFC 5176 Disconnect-Request: PENDING until ACKED, NAKED or NO_ANSWER.
  disconnect_status    text CHECK (disconnect_status IN ('PENDING', 'ACKED', 'NAKED', 'NO_ANSWER')),
  disconnect_attempts  integer NOT NULL DEFAULT 0,
  disconnect_next_at   timestamptz,
  disconnect_done_at   timestamptz,
  PRIMARY KEY (nas_id, acct_session_id)
);
CREATE INDEX connections_by_session ON connections (session_id, started_at);
CREATE INDEX connections_disconnect_due ON connections (disconnect_next_at) WHERE disconnect_status = 'PENDING';

-- Sessions the change feed reported REVOKED or EXPIRED: nothing of theirs is accepted again.
CREATE TABLE ended_sessions (
  session_id  text PRIMARY KEY,
  state       text NOT NULL,
  ended_at    timestamptz NOT NULL
);

-- Where the change-feed follower stands; moved in the same transaction as what it caused.
CREATE TABLE feed_cursor (
  feed    text PRIMARY KEY,
  cursor  text NOT NULL
);
