-- Entitlements granted (spec 2.6) and the requests that asked for them (Idempotency-Key, spec 4.3
-- rule 3). Uniqueness is the database's: one entitlement per (subject, session), one outcome per key.
CREATE TABLE entitlements (
  entitlement_id text PRIMARY KEY,
  subject_id     text NOT NULL,
  session_id     text,
  body           jsonb NOT NULL,
  created_at     timestamptz NOT NULL
);
CREATE UNIQUE INDEX entitlements_one_per_session ON entitlements (subject_id, session_id) WHERE session_id IS NOT NULL;

-- A key is claimed before any outbound call and settled with its outcome: the entitlement, or
-- the denial's reason. A claim without an outcome is "in flight".
CREATE TABLE entitlement_requests (
  idempotency_key text PRIMARY KEY,
  subject_id      text NOT NULL,
  session_id      text,
  entitlement_id  text REFERENCES entitlements (entitlement_id),
  denial_reason   text,
  claimed_at      timestamptz NOT NULL,
  settled_at      timestamptz
);
