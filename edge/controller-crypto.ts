import { createHash, timingSafeEqual } from 'node:crypto';
import type { ArrivalIntegrity, ChapScheme } from './controllers/index.js';

const md5 = (...parts: (Buffer | string)[]): Buffer => {
  const hash = createHash('md5');
  for (const part of parts) hash.update(part);
  return hash.digest();
};

/**
 * The CHAP answer a controller's login expects for a one-time password (the schemes the profiles
 * in edge/controllers name); undefined when the scheme has none or the arrival gave no challenge.
 * - `coova-uam`: the chilli sends CHAP-Challenge = MD5(challenge + UAM secret) (the raw challenge
 *   without a secret) with CHAP ident 0, so the page answers MD5(0x00 + password + that), hex.
 * - `mikrotik`: the router's md5.js answers MD5(chap-id + password + chap-challenge), hex; the
 *   router sends it on as CHAP-Password with ident chap-id and CHAP-Challenge chap-challenge.
 */
export function chapAnswerFor(
  scheme: ChapScheme,
  password: string,
  arrival: { challenge: string | null; chapId?: string | null; uamSecret: string | undefined },
): string | undefined {
  if (scheme === 'none' || arrival.challenge === null) return undefined;
  const challenge = Buffer.from(arrival.challenge, 'hex');
  if (scheme === 'mikrotik') {
    if (arrival.chapId === undefined || arrival.chapId === null) return undefined;
    return md5(Buffer.from(arrival.chapId, 'hex'), password, challenge).toString('hex');
  }
  const chapChallenge = arrival.uamSecret === undefined ? challenge : md5(challenge, arrival.uamSecret);
  return md5(Buffer.from([0]), password, chapChallenge).toString('hex');
}

/**
 * Whether an arrival carries the checksum its controller signs it with, over `signedUrl` (the
 * arrival's full URL as the controller built it). `coova-md`: the `md` parameter is MD5(the URL up
 * to `&md=` + UAM secret), coova-chilli redir.c `redir_md_param`. Without a secret there is
 * nothing to check (true); with one, a missing or wrong `md` is false.
 */
export function arrivalIntegrityHolds(scheme: ArrivalIntegrity, signedUrl: string, secret: string | undefined): boolean {
  if (scheme === 'none' || secret === undefined) return true;
  const at = signedUrl.lastIndexOf('&md=');
  if (at < 0) return false;
  const given = Buffer.from(signedUrl.slice(at + 4).toLowerCase(), 'utf8');
  const expected = Buffer.from(md5(signedUrl.slice(0, at), secret).toString('hex'), 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
