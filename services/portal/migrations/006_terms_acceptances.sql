-- Who accepted which version of the venue's terms and privacy notice, when, and through which way
-- of signing in: the record a venue shows under the personal-data law. Kept as long as the
-- portal's database (no retention rule): it is the proof itself. One row per person and version.
CREATE TABLE terms_acceptances (
  subject_id   text NOT NULL,
  version      text NOT NULL,
  accepted_at  timestamptz NOT NULL,
  channel      text NOT NULL,
  PRIMARY KEY (subject_id, version)
);
