-- Allowance counters: what a person used per period (bytes, seconds), across their sessions and
-- devices. A period is named by its kind and its start in the venue's time zone; a new period is
-- a new row, so access returns at renewal without any action.
CREATE TABLE usage_counters (
  subject_id   text NOT NULL,
  period       text NOT NULL CHECK (period IN ('DAY', 'WEEK', 'MONTH')),
  period_start timestamptz NOT NULL,
  bytes        bigint NOT NULL CHECK (bytes >= 0),
  seconds      bigint NOT NULL CHECK (seconds >= 0),
  PRIMARY KEY (subject_id, period, period_start)
);

-- Per controller connection, the greatest cumulative counters already counted: accounting
-- reports totals, so a replayed or late packet adds only what no earlier packet carried.
CREATE TABLE usage_connections (
  connection_key text PRIMARY KEY,
  subject_id     text NOT NULL,
  bytes          bigint NOT NULL,
  seconds        bigint NOT NULL,
  at             timestamptz NOT NULL
);

-- The allowance of the entitlement a session was granted under (what its person may use per
-- period); null: no limit, or a grant from before allowances existed.
ALTER TABLE sessions ADD COLUMN allowance jsonb;
