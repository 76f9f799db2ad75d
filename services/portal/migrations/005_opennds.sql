-- Issue 28: an openNDS arrival's hid (sha256 of the client's token at the gateway, no secret),
-- kept with the context for the authorisation the sign-in asks the gateway service for.
ALTER TABLE gateway_contexts ADD COLUMN hid text;
-- The hids sign-ins used: an arrival with one of them again is a replayed FAS query (openNDS
-- gives a client a new token whenever it is deauthenticated). Kept a day (see portal README).
CREATE TABLE opennds_used_hids (
  hid      text PRIMARY KEY,
  used_at  timestamptz NOT NULL
);
CREATE INDEX opennds_used_hids_age ON opennds_used_hids (used_at);
