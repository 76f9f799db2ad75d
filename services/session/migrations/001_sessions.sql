-- Network sessions (spec 2.7, 3.1). State changes are conditional UPDATEs on `state`, so the
-- database, not process memory, decides every transition, even with several processes.
CREATE TABLE sessions (
  session_id       text PRIMARY KEY,
  subject_id       text NOT NULL,
  device_ref       text,
  state            text NOT NULL CHECK (state IN ('CREATED', 'GRANTED', 'REVOKED', 'EXPIRED')),
  entitlement_id   text,
  entitlement_type text,
  tier             text,
  qos_class        text,
  device_slots     integer,
  granted_at       timestamptz,
  expires_at       timestamptz,
  revoked_at       timestamptz,
  revoke_reason    text,
  created_at       timestamptz NOT NULL,
  updated_at       timestamptz NOT NULL,
  idempotency_key  text UNIQUE,
  CHECK (state <> 'GRANTED' OR (entitlement_id IS NOT NULL AND expires_at IS NOT NULL))
);

-- Device-slot counting reads a subject's granted sessions, oldest first.
CREATE INDEX sessions_granted_by_subject ON sessions (subject_id, granted_at) WHERE state = 'GRANTED';

-- Every state change, for the operator: which entitlement granted, why a session ended.
CREATE TABLE session_events (
  id              bigserial PRIMARY KEY,
  session_id      text NOT NULL REFERENCES sessions (session_id),
  at              timestamptz NOT NULL,
  from_state      text,
  to_state        text NOT NULL,
  entitlement_id  text,
  reason          text,
  correlation_id  text
);
CREATE INDEX session_events_by_session ON session_events (session_id, id);
