-- Issue 27: a gateway context names its controller profile (contract/controllers) instead of a
-- style, and its login URL is the gateway registry's.
ALTER TABLE gateway_contexts RENAME COLUMN style TO profile;
-- MikroTik's CHAP id (hex) beside the challenge.
ALTER TABLE gateway_contexts ADD COLUMN chap_id TEXT;
