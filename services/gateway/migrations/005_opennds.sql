-- Issue 28: openNDS clients the platform authorised, one row per sign-in. The router's authmon
-- polls for the PENDING ones (and acknowledges them: AUTHORISED); an ended session's rows turn
-- REVOKING until router/revocation-poll.sh reports them deauthenticated (ENDED); the gateway's own
-- ends (BinAuth: idle, timeout, quota, logout) end them with their method. No MAC: the hid
-- (sha256 of the client's token at the gateway) finds a BinAuth notice's row; rhid =
-- sha256(hid + faskey) is what authmon authorises and revocation-poll deauthenticates by.
CREATE TABLE opennds_authorisations (
  rhid             text PRIMARY KEY,
  hid              text NOT NULL UNIQUE,
  nas_id           text NOT NULL,
  session_id       text NOT NULL,
  device_ref       text NOT NULL,
  session_minutes  integer NOT NULL,
  up_kbit          integer NOT NULL,
  down_kbit        integer NOT NULL,
  up_quota_kb      bigint NOT NULL,
  down_quota_kb    bigint NOT NULL,
  custom           text NOT NULL,
  state            text NOT NULL CHECK (state IN ('PENDING', 'AUTHORISED', 'REVOKING', 'ENDED')),
  created_at       timestamptz NOT NULL,
  authorised_at    timestamptz,
  ended_at         timestamptz,
  end_cause        text
);
CREATE INDEX opennds_authorisations_by_session ON opennds_authorisations (session_id);
CREATE INDEX opennds_authorisations_open ON opennds_authorisations (nas_id, state) WHERE state <> 'ENDED';
