import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * One-time credentials. The username is random; the password is derived from it with
 * CREDENTIAL_KEY, so nothing secret is stored (only a hash of the username, as the lookup key)
 * and CHAP, which needs the clear password on the server side, still works.
 */
export function newUsername(): string {
  return `wifi-${randomBytes(12).toString('base64url')}`;
}

export function passwordFor(key: string, username: string): string {
  return createHmac('sha256', key).update(`credential\n${username}`).digest('base64url').slice(0, 24);
}

export function usernameHash(username: string): string {
  return createHash('sha256').update(username).digest('hex');
}

const same = (a: Buffer, b: Buffer) => a.length === b.length && timingSafeEqual(a, b);

export function papMatches(expected: string, presented: string): boolean {
  return same(Buffer.from(expected), Buffer.from(presented));
}

/** RFC 1994 / RFC 2865 5.3: CHAP-Password = ident + MD5(ident + password + challenge). */
export function chapMatches(password: string, chapPassword: Buffer, challenge: Buffer): boolean {
  if (chapPassword.length !== 17 || challenge.length === 0) return false;
  const digest = createHash('md5').update(chapPassword.subarray(0, 1)).update(password).update(challenge).digest();
  return same(digest, chapPassword.subarray(1));
}
