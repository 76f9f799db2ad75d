import { z } from 'zod';
import { arrivalOf, IPV4, MAC_TEXT, WEB_URL, wisprAttributes, type ArrivalContext, type ControllerProfile } from './types.js';

/**
 * pfSense captive portal with a custom portal page (Services > Captive Portal > zone > Portal page
 * contents) that forwards the browser here with pfSense's page variables: `zone` ($PORTAL_ZONE$),
 * `portal_action` ($PORTAL_ACTION$, the firewall's own portal URL the login form posts to),
 * `redirurl` ($PORTAL_REDIRURL$), `mac` ($CLIENT_MAC$, colon or single-dash spelling) and `ip`
 * ($CLIENT_IP$); a refused login comes back with `portal_message` ($PORTAL_MESSAGE$). No NAS id
 * on arrival: the registry finds the firewall by `portal_action`. The login is a POST of
 * `auth_user`, `auth_pass`, `zone`, `redirurl` and `accept` to that URL; pfSense then asks RADIUS
 * with PAP (its web login has no CHAP form: register an https portal URL). pfSense can
 * "reauthenticate connected users every minute": the same credential comes back from the same NAS
 * and device, and is accepted while the session lives (`reauthenticates`). Limits go out as WISPr
 * (pfSense reads WISPr-Bandwidth-Max-Up/Down); its RFC 5176 support finds a session by
 * `User-Name` and `Calling-Station-Id`.
 */
const ZONE = /^[a-z0-9_]{1,32}$/;

const Query = z
  .object({
    zone: z.string().regex(ZONE, 'must be a pfSense zone name'),
    portal_action: WEB_URL,
    redirurl: z.union([z.literal(''), WEB_URL]).optional(),
    mac: z.string().regex(MAC_TEXT, 'must be a MAC address').optional(),
    ip: z.string().regex(IPV4, 'must be an IPv4 address').optional(),
    portal_message: z
      .string()
      .max(253)
      .regex(/^[^\p{Cc}]*$/u, 'must hold no control characters')
      .optional(),
  })
  .refine((q) => (q.portal_message ?? '') !== '' || q.mac !== undefined, { path: ['mac'], message: 'required on a first visit' });

const toArrival = (q: z.output<typeof Query>): ArrivalContext => ({
  state: (q.portal_message ?? '') === '' ? 'login' : 'failed',
  nasId: null,
  mac: q.mac ?? null,
  loginUrl: q.portal_action,
  challenge: null,
  chapId: null,
  returnUrl: q.redirurl === undefined || q.redirurl === '' ? null : q.redirurl,
  reason: (q.portal_message ?? '') === '' ? null : (q.portal_message ?? null),
  timeLeft: null,
});

export const pfsense: ControllerProfile = {
  id: 'pfsense',
  name: 'pfSense captive portal (custom portal page)',
  sources: [
    'Netgate, pfSense documentation "Captive Portal Configuration" and "Captive Portal: Custom portal page" (variables $PORTAL_ACTION$, $PORTAL_REDIRURL$, $PORTAL_ZONE$, $PORTAL_MESSAGE$, $CLIENT_MAC$, $CLIENT_IP$; form fields auth_user, auth_pass, accept, zone, redirurl)',
    'pfSense captiveportal.inc: RADIUS re-authentication of connected users every minute ("reauthenticate")',
  ],
  arrival: arrivalOf((query) => 'portal_action' in query || ('zone' in query && 'redirurl' in query), Query, toArrival),
  grant: 'credential',
  login: {
    method: 'POST',
    chap: 'none',
    fields: (credential, returnUrl, loginUrl) => ({
      auth_user: credential.username,
      auth_pass: credential.password,
      // The zone is the registered portal URL's own (`?zone=`), never the arrival's.
      zone: new URL(loginUrl).searchParams.get('zone') ?? '',
      redirurl: returnUrl ?? '',
      accept: 'Login',
    }),
  },
  replyAttributes: wisprAttributes,
  // pfSense's captive portal reads pfSense-Max-Total-Octets (13644, 3) as its per-session traffic quota.
  volume: { octets: 'pfSense-Max-Total-Octets', gigawords: null },
  disconnect: ['User-Name', 'Calling-Station-Id', 'Acct-Session-Id', 'Event-Timestamp'],
  // Its captive portal applies limits at authentication, which it repeats every minute: new limits come then.
  coa: false,
  reauthenticates: true,
};
