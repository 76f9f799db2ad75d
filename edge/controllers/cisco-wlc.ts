import { z } from 'zod';
import { arrivalOf, MAC_TEXT, SCHEMELESS_RETURN_URL, sessionAttributes, WEB_URL, type ArrivalContext, type ControllerProfile } from './types.js';

/**
 * Cisco WLC external web authentication (AireOS and Catalyst 9800 EWA). The controller redirects
 * to the external page with `switch_url` (its virtual IP's login page, e.g.
 * `https://192.0.2.1/login.html`), `ap_mac`, `client_mac`, `wlan` (the SSID, any UTF-8), and
 * `redirect` (the page first asked for, often without a scheme); after a refused login it
 * redirects again with `statusCode` 1-5 and no `client_mac` (Cisco's sample login.html: 1 already
 * logged in, 2 not configured for web auth, 3 user name in use, 4 excluded, 5 wrong user name or
 * password). It sends no NAS id: the registry finds the WLC by `switch_url`. The login is a POST
 * to `switch_url` with `buttonClicked=4`, `username`, `password`, `redirect_url` (no CHAP form
 * exists; register an https `switch_url`). AireOS finds a session to disconnect by
 * `Calling-Station-Id`.
 */
const STATUS_REASONS: Record<string, string> = {
  '1': 'already-logged-in',
  '2': 'not-configured-for-web-auth',
  '3': 'user-name-in-use',
  '4': 'excluded',
  '5': 'wrong-user-name-or-password',
};

/** Cisco's `redirect` as a return URL: a bare host and path (as captures show) is read as http. */
const RETURN_URL = SCHEMELESS_RETURN_URL;

const Query = z
  .object({
    switch_url: WEB_URL,
    ap_mac: z.string().regex(MAC_TEXT, 'must be a MAC address').optional(),
    client_mac: z.string().regex(MAC_TEXT, 'must be a MAC address').optional(),
    // The SSID: up to 32 octets of anything but control characters.
    wlan: z
      .string()
      .max(64)
      .regex(/^[^\p{Cc}]*$/u, 'must hold no control characters')
      .optional(),
    redirect: RETURN_URL.optional(),
    statusCode: z.enum(Object.keys(STATUS_REASONS) as [string, ...string[]]).optional(),
  })
  .refine((q) => q.statusCode !== undefined || q.client_mac !== undefined, { path: ['client_mac'], message: 'required unless statusCode is given' });

const toArrival = (q: z.output<typeof Query>): ArrivalContext => ({
  state: q.statusCode === undefined ? 'login' : q.statusCode === '1' ? 'already' : 'failed',
  nasId: null,
  mac: q.statusCode === undefined ? (q.client_mac ?? null) : null,
  loginUrl: q.switch_url,
  challenge: null,
  chapId: null,
  returnUrl: q.redirect ?? null,
  reason: q.statusCode === undefined ? null : (STATUS_REASONS[q.statusCode] ?? null),
  timeLeft: null,
});

export const ciscoWlc: ControllerProfile = {
  id: 'cisco-wlc',
  name: 'Cisco WLC external web authentication (AireOS, Catalyst 9800)',
  sources: [
    'Cisco, "External Web Authentication with Wireless LAN Controllers Configuration Example" (document 71881: parameters, sample login.html with statusCode 1-5)',
    'Cisco, "Configure External Web Authentication on Catalyst 9800 WLC" (document 70937)',
  ],
  arrival: arrivalOf((query) => 'switch_url' in query || 'client_mac' in query, Query, toArrival),
  grant: 'credential',
  login: {
    method: 'POST',
    chap: 'none',
    fields: (credential, returnUrl) => ({
      buttonClicked: '4',
      err_flag: '0',
      username: credential.username,
      password: credential.password,
      ...(returnUrl === null ? {} : { redirect_url: returnUrl }),
    }),
  },
  // AireOS reads bandwidth contracts in kbit/s (Airespace vendor 14179), not WISPr.
  replyAttributes: (limits) => ({
    ...sessionAttributes(limits),
    'Airespace-Data-Bandwidth-Average-Contract': Math.floor(limits.downBitsPerSecond / 1000),
    'Airespace-Data-Bandwidth-Average-Contract-Upstream': Math.floor(limits.upBitsPerSecond / 1000),
  }),
  // No volume attribute is declared for AireOS web authentication: a data allowance ends by Disconnect.
  volume: null,
  disconnect: ['Calling-Station-Id', 'User-Name', 'Acct-Session-Id', 'Event-Timestamp'],
  // AireOS applies its bandwidth contracts at authentication; new limits come with the next one.
  coa: false,
};
