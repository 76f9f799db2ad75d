import { z } from 'zod';
import { arrivalOf, chapAnswer, IPV4, MAC_TEXT, WEB_URL, wisprAttributes, type ArrivalContext, type ArrivalState, type ControllerProfile } from './types.js';

/**
 * CoovaChilli and the generic UAM/WISPr family (ChilliSpot, many hotspot firmwares). Its redirect
 * (coova-chilli `src/redir.c`, `bstring_buildurl`) carries `res`, `uamip`, `uamport`, `challenge`
 * (not on `success`/`logoff`), `called`, `uid`, `timeleft`, `mac`, `ip`, `reply` (on `failed`),
 * `ssid`, `nasid` (when `radiusnasid` is set), `vlan`, `lang`, `sessionid`, `redirurl`, `userurl`
 * and last, with a UAM secret, `md` = MD5(the URL up to `&md=` + UAM secret) in upper-case hex
 * (`redir_md_param`). The login is `GET http://uamip:uamport/logon?username=&response=` with the
 * CHAP answer; `/logoff` ends it.
 */
const RES_STATES: Record<string, ArrivalState> = {
  notyet: 'login',
  success: 'success',
  failed: 'failed',
  logoff: 'logoff',
  already: 'already',
  // The chilli's status pop-up stages: logging in / logged in, and logged off.
  popup1: 'success',
  popup2: 'success',
  popup3: 'logoff',
};

const HEX_CHALLENGE = /^([0-9a-fA-F]{2}){16}$/;

const Query = z
  .object({
    res: z.enum(Object.keys(RES_STATES) as [string, ...string[]]),
    uamip: z.string().regex(IPV4, 'must be an IPv4 address'),
    uamport: z.coerce.number().int().min(1).max(65535),
    challenge: z.string().regex(HEX_CHALLENGE, 'must be 32 hex digits').optional(),
    mac: z.string().regex(MAC_TEXT, 'must be a MAC address').optional(),
    ip: z.string().regex(IPV4, 'must be an IPv4 address').optional(),
    nasid: z
      .string()
      .regex(/^[A-Za-z0-9_.-]{1,64}$/, 'must be 1-64 letters, digits, ., - or _')
      .optional(),
    userurl: WEB_URL.optional(),
    reply: z.string().max(253).optional(),
    timeleft: z.coerce
      .number()
      .int()
      .min(0)
      .max(2 ** 31)
      .optional(),
    sessionid: z
      .string()
      .regex(/^[0-9A-Za-z.-]{1,64}$/)
      .optional(),
    md: z
      .string()
      .regex(/^[0-9A-Fa-f]{32}$/, 'must be 32 hex digits')
      .optional(),
  })
  // A captive device must be named and challenged; other states need neither.
  .refine((q) => q.res !== 'notyet' || (q.mac !== undefined && q.challenge !== undefined), { path: ['challenge'], message: 'notyet needs mac and challenge' });

const toArrival = (q: z.output<typeof Query>): ArrivalContext => ({
  state: RES_STATES[q.res] ?? 'login',
  nasId: q.nasid ?? null,
  mac: q.mac ?? null,
  loginUrl: `http://${q.uamip}:${q.uamport}/logon`,
  challenge: q.challenge?.toLowerCase() ?? null,
  chapId: null,
  returnUrl: q.userurl ?? null,
  reason: q.reply ?? null,
  timeLeft: q.timeleft ?? null,
});

export const coovachilli: ControllerProfile = {
  id: 'coovachilli',
  name: 'CoovaChilli (UAM/WISPr)',
  sources: ['coova-chilli src/redir.c (bstring_buildurl, redir_md_param)', 'coova-chilli src/chilli.c (Disconnect-Request handling)'],
  arrival: arrivalOf((query) => 'uamip' in query || 'res' in query, Query, toArrival, 'coova-md'),
  grant: 'credential',
  login: {
    method: 'GET',
    chap: 'coova-uam',
    fields: (credential, returnUrl) => ({
      username: credential.username,
      // CHAP always (an arrival to log in carries a challenge): the password never goes over http.
      response: chapAnswer(credential),
      ...(returnUrl === null ? {} : { userurl: returnUrl }),
    }),
  },
  replyAttributes: wisprAttributes,
  // coova-chilli reads ChilliSpot-Max-Total-Octets (vendor 14559, 3) from the Accept (radius.c); FreeRADIUS's
  // dictionary.chillispot has no gigawords companion.
  // A CoA-Request's session attributes replace the running session's (chilli.c hands a CoA to
  // config_radius_session, as an Accept's), its octets so far still counted against the new cap.
  volume: { octets: 'ChilliSpot-Max-Total-Octets', gigawords: null, byCoa: true },
  disconnect: ['User-Name', 'Acct-Session-Id', 'NAS-Identifier', 'Event-Timestamp'],
  // coova-chilli answers a CoA-Request by re-reading the session's parameters (chilli.c, its RADIUS CoA handler).
  coa: true,
};
