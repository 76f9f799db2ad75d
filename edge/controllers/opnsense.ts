import { z } from 'zod';
import { arrivalOf, IPV4, MAC_TEXT, SCHEMELESS_RETURN_URL, WEB_URL, type ArrivalContext, type ControllerProfile, type SessionLimits } from './types.js';

/**
 * OPNsense captive portal (opnsense/core). A zone's web server (port 8000 + zone id) redirects a
 * captive browser to its own `index.html?redirurl=<host><path>` (no scheme: lighttpd-zone.conf);
 * the zone's template is static HTML, so the venue uploads a template whose `index.html` asks the
 * zone's `/api/captiveportal/access/status/` (as OPNsense's default template does) and forwards
 * the browser here with `zone_url` (the zone's origin, `location.origin`), `redirurl`, and the
 * status answer's `clientState` (`NOT_AUTHORIZED` | `AUTHORIZED`), `ipAddress`, `macAddress`
 * (present only with the zone's "extended pre-auth data"), `authType`. No NAS id on arrival: the
 * registry finds the zone by the logon URL under `zone_url`. The login is a form POST of `user` and
 * `password` to `<zone>/api/captiveportal/access/logon/` (AccessController::logonAction reads
 * them with getPost; the zone is the `zoneid` header the zone's lighttpd sets, never the path),
 * which asks RADIUS with PAP (or MS-CHAPv2 computed by OPNsense from the clear password: no CHAP
 * form reaches the page), so the registry holds it only as https (as every login handed the password itself). It answers
 * JSON (`clientState`) with `Access-Control-Allow-Origin: *`, so the page posts from script and
 * tells the person the answer rather than leaving them on OPNsense's JSON (`handOff`). OPNsense's
 * RADIUS authenticator (Auth/Radius.php) reads Session-Timeout and Acct-Interim-Interval (60 s or
 * more) from the Access-Accept, nothing else of ours (no WISPr bandwidth, no Idle-Timeout: the
 * zone's own idle timeout applies). It never re-authenticates a connected client and has no RFC
 * 5176 listener: a revoked session ends at its Session-Timeout (`disconnect` empty,
 * `disconnectListener` false).
 */
const CLIENT_STATES = ['NOT_AUTHORIZED', 'AUTHORIZED'] as const;

/** OPNsense's `redirurl`: `<host><path>` as lighttpd builds it (read as http, as its default template does), or a full URL. */
const RETURN_URL = SCHEMELESS_RETURN_URL;

/** The zone's origin: scheme, host and port only (`location.origin` of its index.html). */
const ZONE_ORIGIN = WEB_URL.refine((value) => {
  const url = new URL(value);
  return url.origin === value.replace(/\/$/, '');
}, "must be the zone's origin (scheme, host, port)");

/** Where a zone's logon API is, under its origin (the path OPNsense's default template posts to). */
export const OPNSENSE_LOGON_PATH = '/api/captiveportal/access/logon/';

const Query = z
  .object({
    zone_url: ZONE_ORIGIN,
    clientState: z.enum(CLIENT_STATES),
    redirurl: z.union([z.literal(''), RETURN_URL]).optional(),
    ipAddress: z.string().regex(IPV4, 'must be an IPv4 address').optional(),
    macAddress: z.string().regex(MAC_TEXT, 'must be a MAC address').optional(),
    authType: z.enum(['normal', 'none']).optional(),
  })
  .refine((q) => q.clientState === 'AUTHORIZED' || q.macAddress !== undefined, {
    path: ['macAddress'],
    message: "required before sign-in (the zone's extended pre-auth data)",
  });

const toArrival = (q: z.output<typeof Query>): ArrivalContext => ({
  state: q.clientState === 'AUTHORIZED' ? 'already' : 'login',
  nasId: null,
  mac: q.macAddress ?? null,
  loginUrl: new URL(OPNSENSE_LOGON_PATH, q.zone_url).href,
  challenge: null,
  chapId: null,
  returnUrl: q.redirurl === undefined || q.redirurl === '' ? null : q.redirurl,
  reason: null,
  timeLeft: null,
});

/** What OPNsense's RADIUS authenticator reads of an Access-Accept: the session's length and the accounting interval. */
function opnsenseAttributes(limits: SessionLimits): Record<string, number> {
  return { 'Session-Timeout': limits.sessionSeconds, 'Acct-Interim-Interval': Math.max(60, limits.interimSeconds) };
}

export const opnsense: ControllerProfile = {
  id: 'opnsense',
  name: 'OPNsense captive portal (forwarding zone template)',
  sources: [
    'opnsense/core src/opnsense/mvc/app/controllers/OPNsense/CaptivePortal/Api/AccessController.php (status, logon with POST user/password, logoff; zone from the zoneid header; CORS *)',
    'opnsense/core src/opnsense/service/templates/OPNsense/Captiveportal/lighttpd-zone.conf (port 8000 + zone id, https with a zone certificate, redirect to index.html?redirurl=<host><path>, zoneid request header)',
    'opnsense/core src/opnsense/scripts/captiveportal/htdocs_default/index.html (the default template: status then logon, return to http://<redirurl>)',
    'opnsense/core src/opnsense/mvc/app/library/OPNsense/Auth/Radius.php (Access-Request and accounting attributes; Session-Timeout and Acct-Interim-Interval read from the Accept)',
  ],
  arrival: arrivalOf((query) => 'zone_url' in query && 'clientState' in query, Query, toArrival),
  grant: 'credential',
  login: {
    method: 'POST',
    chap: 'none',
    handOff: 'script',
    fields: (credential) => ({ user: credential.username, password: credential.password }),
  },
  replyAttributes: opnsenseAttributes,
  // No volume attribute is declared for OPNsense's captive portal: a data allowance is checked at its next login.
  volume: null,
  disconnect: [],
  disconnectListener: false,
  // No RFC 5176 listener at all: no CoA either; a new Session-Timeout comes with the next login.
  coa: false,
};
