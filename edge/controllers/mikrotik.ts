import { z } from 'zod';
import { arrivalOf, chapAnswer, IPV4, MAC_TEXT, sessionAttributes, WEB_URL, type ArrivalContext, type ControllerProfile } from './types.js';

/**
 * MikroTik RouterOS Hotspot with an external login page. The router's own `login.html` (edited by
 * the operator, see README) forwards the browser, by GET or by an auto-submitted POST form, with
 * the servlet variables the operator names: `mac`, `ip`, `link-login-only` (the router's `/login`),
 * `link-orig` (the page first asked for), `chap-id` and `chap-challenge` (octal escapes, one `\ooo`
 * per octet, as `$(chap-id)` / `$(chap-challenge)` expand) and `error` (empty on a first visit, the
 * router's message after a refused login). No NAS id: the registry finds the router by its
 * `link-login-only`. Login with `login-by=http-chap`: POST `username`, `password` =
 * hex(MD5(chap-id + password + chap-challenge)) (the router's md5.js), `dst`, `popup` to
 * `link-login-only`; the router then sends a standard CHAP Access-Request. Limits go in
 * `Mikrotik-Rate-Limit` (`rx/tx` from the router's side: the client's upload first, bit/s).
 */

/** `\ooo` escapes (and printable characters as themselves) as the octets' hex; undefined when malformed. */
export function octalEscapesToHex(value: string): string | undefined {
  if (!/^(?:\\[0-3][0-7]{2}|[\x20-\x5b\x5d-\x7e])+$/.test(value)) return undefined;
  const octets = [...value.matchAll(/\\([0-3][0-7]{2})|([^\\])/g)].map((m) => (m[1] !== undefined ? Number.parseInt(m[1], 8) : (m[2] ?? '').charCodeAt(0)));
  return octets.map((octet) => octet.toString(16).padStart(2, '0')).join('');
}

const octets = (count: number, name: string) =>
  z
    .string()
    .max(count * 4)
    .transform((value, ctx) => {
      const hex = octalEscapesToHex(value);
      if (hex === undefined || hex.length !== count * 2) {
        ctx.addIssue({ code: 'custom', message: `${name} must be ${count} octet(s) as octal escapes` });
        return z.NEVER;
      }
      return hex;
    });

const Query = z.object({
  'link-login-only': WEB_URL,
  mac: z.string().regex(MAC_TEXT, 'must be a MAC address'),
  ip: z.string().regex(IPV4, 'must be an IPv4 address').optional(),
  'link-orig': z.union([z.literal(''), WEB_URL]).optional(),
  'chap-id': octets(1, 'chap-id'),
  'chap-challenge': octets(16, 'chap-challenge'),
  error: z
    .string()
    .max(253)
    .regex(/^[^\p{Cc}]*$/u, 'must hold no control characters')
    .optional(),
});

const toArrival = (q: z.output<typeof Query>): ArrivalContext => ({
  state: q.error === undefined || q.error === '' ? 'login' : 'failed',
  nasId: null,
  mac: q.mac,
  loginUrl: q['link-login-only'],
  challenge: q['chap-challenge'],
  chapId: q['chap-id'],
  returnUrl: q['link-orig'] === undefined || q['link-orig'] === '' ? null : q['link-orig'],
  reason: q.error === undefined || q.error === '' ? null : q.error,
  timeLeft: null,
});

export const mikrotik: ControllerProfile = {
  id: 'mikrotik',
  name: 'MikroTik RouterOS Hotspot (external login page)',
  sources: [
    'MikroTik, RouterOS manual "IP/Hotspot/Customisation": servlet page variables (mac, ip, link-login-only, link-orig, chap-id, chap-challenge, error) and the http-chap login form',
    'MikroTik, RouterOS manual "RADIUS": Access-Request attributes (CHAP-Password, CHAP-Challenge, Calling-Station-Id upper case), Mikrotik-Rate-Limit, incoming Disconnect-Request',
  ],
  arrival: arrivalOf((query) => 'link-login-only' in query || 'chap-id' in query, Query, toArrival),
  grant: 'credential',
  login: {
    method: 'POST',
    chap: 'mikrotik',
    fields: (credential, returnUrl) => ({
      username: credential.username,
      // http-chap: the hash, never the password over http.
      password: chapAnswer(credential),
      dst: returnUrl ?? '',
      popup: 'false',
    }),
  },
  replyAttributes: (limits) => ({
    ...sessionAttributes(limits),
    'Mikrotik-Rate-Limit': `${limits.upBitsPerSecond}/${limits.downBitsPerSecond}`,
  }),
  // RouterOS hotspot: Mikrotik-Total-Limit (14988, 17) and Mikrotik-Total-Limit-Gigawords (18), bytes in and out together.
  volume: { octets: 'Mikrotik-Total-Limit', gigawords: 'Mikrotik-Total-Limit-Gigawords' },
  disconnect: ['User-Name', 'Framed-IP-Address', 'Acct-Session-Id', 'Event-Timestamp'],
  // RouterOS: `/radius incoming accept=yes` applies Mikrotik-Rate-Limit and Session-Timeout from a CoA-Request.
  coa: true,
};
