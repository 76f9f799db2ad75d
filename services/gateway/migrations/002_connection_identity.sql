-- Issue 27: what a controller's Disconnect-Request must name the session by (User-Name,
-- Calling-Station-Id, Framed-IP-Address, NAS-IP-Address, NAS-Identifier as the NAS sent them),
-- sealed with GATEWAY_SEAL_KEY while the connection runs and erased at its Stop.
ALTER TABLE connections ADD COLUMN identity text;
-- A Disconnect-NAK with Error-Cause 503 (Session-Context-Not-Found): the NAS has no such session.
ALTER TABLE connections DROP CONSTRAINT connections_disconnect_status_check;
ALTER TABLE connections ADD CONSTRAINT connections_disconnect_status_check CHECK (disconnect_status IN ('PENDING', 'ACKED', 'NAKED', 'GONE', 'NO_ANSWER'));
