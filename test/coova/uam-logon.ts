import { createHash } from 'node:crypto';
import type { RunningChilli } from '../../scripts/coova/harness.js';
import { waitFor } from '../../scripts/opennds/command.js';
import { get } from '../opennds/client-http.js';

const md5 = (...parts: (Buffer | string)[]) => parts.reduce((hash, part) => hash.update(part), createHash('md5')).digest();

/**
 * The /logon address a captive device's page would open, and the challenge it answers: the challenge from chilli's redirect, the
 * password's UAM CHAP answer (RFC 1994 over the challenge hashed with the UAM secret), computed here
 * apart from the product's edge/controller-crypto.ts so that the tests check it against chilli itself.
 */
export async function uamLogon(chilli: RunningChilli, username: string, password: string, uamSecret: string): Promise<{ url: string; challenge: string }> {
  const captive = await waitFor(
    'chilli redirects a captive page',
    async () => {
      const answer = await get(chilli.client, chilli.internetUrl);
      return answer.status === 302 ? answer : undefined;
    },
    10_000,
    200,
  );
  const challenge = /challenge=([0-9a-f]{32})/.exec(captive.location)?.[1] ?? '';
  const response = md5(Buffer.from([0]), password, md5(Buffer.from(challenge, 'hex'), uamSecret)).toString('hex');
  return { url: `${chilli.uamOrigin}/logon?username=${username}&response=${response}`, challenge };
}
