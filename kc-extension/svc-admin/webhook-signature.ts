import type { AdminContext } from './context.js';

/** spec 6 / 8: at most 5 minutes between X-SVC-Timestamp and server time. */
export const MAX_SKEW_MS = 5 * 60 * 1000;

/**
 * BAD_SIGNATURE also stands for an unknown company and a company without a secret: a sender
 * without the secret must not learn which company codes exist.
 */
export type SignatureVerdict = 'OK' | 'MISSING_HEADERS' | 'STALE_TIMESTAMP' | 'BAD_SIGNATURE';

/** A key of this script context's own for companies without a secret, so every refusal costs the same HMAC. */
let decoyKey: string | undefined;

/** Looks at every character of the expected value whatever matches (spec 6: constant time). */
export function constantTimeEqual(expected: string, given: string): boolean {
  let difference = expected.length ^ given.length;
  for (let i = 0; i < expected.length; i++) difference |= expected.charCodeAt(i) ^ (given.charCodeAt(i) || 0);
  return difference === 0;
}

/**
 * base64 HMAC-SHA256 with the company's secret over `<timestamp>.<raw body bytes>`. The headers
 * and the timestamp are judged first, alike for every code; then a company without a secret (or
 * none at all) is checked against a decoy key and answers as a wrong signature would.
 */
export function verifySignature(context: AdminContext, sealedSecret: string | undefined): SignatureVerdict {
  const timestamp = context.host.request.header('X-SVC-Timestamp');
  const signature = context.host.request.header('X-SVC-Signature');
  if (timestamp === undefined || signature === undefined || !/^\d{1,12}$/.test(timestamp)) return 'MISSING_HEADERS';
  if (Math.abs(context.host.nowMs() - Number(timestamp) * 1000) > MAX_SKEW_MS) return 'STALE_TIMESTAMP';
  let key = sealedSecret;
  if (key === undefined) {
    decoyKey ??= context.host.crypto.newSealedKey();
    key = decoyKey;
  }
  const expected = context.host.crypto.hmacOverBody(key, `${timestamp}.`);
  const matches = constantTimeEqual(expected ?? '', signature.trim());
  return matches && expected !== undefined && sealedSecret !== undefined ? 'OK' : 'BAD_SIGNATURE';
}
