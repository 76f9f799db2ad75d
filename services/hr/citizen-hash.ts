import { createHmac, timingSafeEqual } from 'node:crypto';

/** Keyed hash of a citizen number: the fixture holds only these, so the raw number lives only in the request. */
export function citizenHash(key: string, citizenId: string): Buffer {
  return createHmac('sha256', key).update(citizenId, 'utf8').digest();
}

export function hashesEqual(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
