-- Issue 27 item 5: a returning device (MAC authentication) is found by its deviceRef among the
-- credentials its session used; an accept at a NAS is recorded there too (so that NAS's
-- accounting Class is believed), as a credential used at once.
CREATE INDEX credentials_used_by_device ON credentials (device_ref, used_at) WHERE used_at IS NOT NULL;
