import type { AdminContext } from './context.js';

/** spec 6 / 8: at most 5 minutes between X-SVC-Timestamp and server time. */
export const MAX_SKEW_MS = 5 * 60 * 1000;

export type SignatureVerdict = 'OK' | 'MISSING_HEADERS' | 'STALE_TIMESTAMP' | 'BAD_SIGNATURE' | 'NO_SECRET';

/** Looks at every character of the expected value whatever matches (spec 6: constant time). */
export function constantTimeEqual(expected: string, given: string): boolean {
  let difference = expected.length ^ given.length;
  for (let i = 0; i < expected.length; i++) difference |= expected.charCodeAt(i) ^ (given.charCodeAt(i) || 0);
  return difference === 0;
}

/** base64 HMAC-SHA256 with the company's secret over `<timestamp>.<raw body bytes>`. */
export function verifySignature(context: AdminContext, sealedSecret: string | undefined): SignatureVerdict {
  if (sealedSecret === undefined) return 'NO_SECRET';
  const timestamp = context.host.request.header('X-SVC-Timestamp');
  const signature = context.host.request.header('X-SVC-Signature');
  if (timestamp === undefined || signature === undefined || !/^\d{1,12}$/.test(timestamp)) return 'MISSING_HEADERS';
  if (Math.abs(context.host.nowMs() - Number(timestamp) * 1000) > MAX_SKEW_MS) return 'STALE_TIMESTAMP';
  const expected = context.host.crypto.hmacOverBody(sealedSecret, `${timestamp}.`);
  if (expected === undefined) return 'NO_SECRET';
  return constantTimeEqual(expected, signature.trim()) ? 'OK' : 'BAD_SIGNATURE';
}
