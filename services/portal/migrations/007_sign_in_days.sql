-- The day each account last signed in through the portal (no time of day, no device, no way in):
-- what the terms acceptances' retention counts an account's last acceptance from, since a person
-- who still signs in under it still relies on it. Written at most once a day per account.
CREATE TABLE sign_in_days (
  subject_id  text PRIMARY KEY,
  last_day    date NOT NULL
);
CREATE INDEX sign_in_days_last_day ON sign_in_days (last_day);
-- Accounts that signed in before this table existed: their newest acceptance is the latest sign-in known.
INSERT INTO sign_in_days (subject_id, last_day)
  SELECT subject_id, max(accepted_at)::date FROM terms_acceptances GROUP BY subject_id;
