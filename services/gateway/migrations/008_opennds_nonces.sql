-- The nonces of signed requests from openNDS routers (authmon, BinAuth, revocation-poll.sh through
-- the signing post-request.php): a request whose nonce was seen is a replay. Rows older than the
-- signature window name nothing a fresh request could carry, and are removed as new ones come.
CREATE TABLE opennds_nonces (
  nas_id   text NOT NULL,
  nonce    text NOT NULL,
  seen_at  timestamptz NOT NULL,
  PRIMARY KEY (nas_id, nonce)
);
CREATE INDEX opennds_nonces_seen_at ON opennds_nonces (seen_at);
