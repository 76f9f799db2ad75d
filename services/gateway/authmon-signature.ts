import { createHmac, timingSafeEqual } from 'node:crypto';
import { authmonSignedText } from '../../edge/controllers/opennds-authmon.js';

export interface SignedAuthmonRequest {
  auth_get: string;
  gatewayhash: string;
  payload: string;
  ts?: string | undefined;
  nonce?: string | undefined;
  sig?: string | undefined;
}

/** Why a router's request is not taken as the router's: no signature, outside the window, or a signature its faskey did not make. */
export type SignatureVerdict = 'signed' | 'unsigned' | 'stale' | 'forged';

/**
 * Whether the request carries the signing post-request.php's HMAC under this gateway's faskey,
 * made within `windowSeconds` of `now` either way (router clocks drift). The nonce's first use is
 * the caller's to record: this only reads.
 */
export function authmonSignature(request: SignedAuthmonRequest, faskey: string, now: Date, windowSeconds: number): SignatureVerdict {
  const { ts, nonce, sig } = request;
  if (ts === undefined || nonce === undefined || sig === undefined) return 'unsigned';
  if (Math.abs(now.getTime() / 1000 - Number(ts)) > windowSeconds) return 'stale';
  const expected = createHmac('sha256', faskey)
    .update(authmonSignedText({ ts, nonce, auth_get: request.auth_get, gatewayhash: request.gatewayhash, payload: request.payload }))
    .digest();
  const given = Buffer.from(sig, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected) ? 'signed' : 'forged';
}
