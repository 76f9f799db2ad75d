import { createHash, randomBytes } from 'node:crypto';

/** A fresh opaque cookie value (256 bits) and the hash it is stored under. */
export function newSid(): string {
  return randomBytes(32).toString('base64url');
}

export function sidHash(sid: string): string {
  return createHash('sha256').update(sid).digest('hex');
}
