-- Issue 28: when each openNDS gateway's authmon (or BinAuth, revocation-poll.sh) last reached the
-- platform. The portal takes an arrival only from a gateway that polls: at FAS level 2 (or 1) no
-- authmon runs, and a gateway that never polls would leave its signed-in devices waiting.
CREATE TABLE opennds_gateway_polls (
  nas_id     text PRIMARY KEY,
  polled_at  timestamptz NOT NULL
);
