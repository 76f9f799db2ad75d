import { z } from 'zod';
import { normalizeMac } from '../kit/device-ref.js';

/**
 * Issue 17: what a gateway appends when it sends a captive device to the portal, in the two
 * common styles: UAM/WISPr (CoovaChilli and most hotspots) and Cisco external web auth. Known
 * parameters are checked strictly; anything else a gateway adds is ignored and never kept. The
 * MAC address is only ever hashed into the deviceRef (services/kit/device-ref.ts).
 */
export type GatewayContext =
  | { style: 'uam'; nasId: string; mac: string; uamIp: string; uamPort: number; challenge: string; userUrl: string | null }
  | { style: 'cisco'; nasId: string; mac: string; switchUrl: string; redirect: string | null };

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const mac = z.string().max(17).refine((value) => normalizeMac(value) !== undefined, 'must be a MAC address').transform((value) => normalizeMac(value) as string);
const nasId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1-64 letters, digits, - or _');
const webUrl = z.string().max(2048).refine((value) => {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}, 'must be an http(s) URL');

const Uam = z.object({
  res: z.enum(['notyet', 'failed', 'success', 'logoff', 'already', 'popup1', 'popup2', 'popup3']).optional(),
  uamip: z.string().regex(IPV4, 'must be an IPv4 address'),
  uamport: z.coerce.number().int().min(1).max(65535),
  challenge: z.string().regex(/^[0-9a-fA-F]{32}$/, 'must be 32 hex digits'),
  called: mac.optional(),
  mac,
  ip: z.string().regex(IPV4, 'must be an IPv4 address').optional(),
  nasid: nasId,
  userurl: webUrl.optional(),
});

const Cisco = z.object({
  switch_url: webUrl,
  ap_mac: mac.optional(),
  client_mac: mac,
  wlan: z.string().max(64).regex(/^[\x20-\x7e]*$/).optional(),
  redirect: webUrl.optional(),
  nasid: nasId.optional(),
});

export type ContextParse = { kind: 'none' } | { kind: 'context'; context: GatewayContext } | { kind: 'invalid'; problems: string[] };

const problemsOf = (error: z.ZodError) => error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);

/**
 * The gateway context of a portal address's query, if it carries one. `defaultNasId` names the
 * gateway for a Cisco controller, which does not send its NAS id.
 */
export function parseGatewayContext(query: Record<string, unknown>, defaultNasId: string): ContextParse {
  const single = Object.fromEntries(Object.entries(query).filter(([, value]) => typeof value === 'string'));
  if (Object.keys(query).some((key) => typeof query[key] !== 'string' && (key in Uam.shape || key in Cisco.shape))) {
    return { kind: 'invalid', problems: ['a parameter was given more than once'] };
  }
  if ('uamip' in single || 'challenge' in single) {
    const parsed = Uam.safeParse(single);
    if (!parsed.success) return { kind: 'invalid', problems: problemsOf(parsed.error) };
    const q = parsed.data;
    return { kind: 'context', context: { style: 'uam', nasId: q.nasid, mac: q.mac, uamIp: q.uamip, uamPort: q.uamport, challenge: q.challenge.toLowerCase(), userUrl: q.userurl ?? null } };
  }
  if ('switch_url' in single || 'client_mac' in single) {
    const parsed = Cisco.safeParse(single);
    if (!parsed.success) return { kind: 'invalid', problems: problemsOf(parsed.error) };
    const q = parsed.data;
    return { kind: 'context', context: { style: 'cisco', nasId: q.nasid ?? defaultNasId, mac: q.client_mac, switchUrl: q.switch_url, redirect: q.redirect ?? null } };
  }
  return { kind: 'none' };
}

/** How the page logs the device in at its gateway with a one-time credential. */
export interface GatewayLogin {
  loginUrl: string;
  method: 'GET' | 'POST';
  fields: Record<string, string>;
  expiresAt: string;
}

export interface StoredContext {
  style: 'uam' | 'cisco';
  nasId: string;
  deviceRef: string;
  loginUrl: string;
  challenge: string | null;
  returnUrl: string | null;
}

/** The login request each style's gateway expects (CoovaChilli `/logon` with a CHAP response; Cisco's web-auth form). */
export function gatewayLogin(context: StoredContext, credential: { username: string; password: string; chapResponse?: string; expiresAt: string }): GatewayLogin {
  if (context.style === 'uam') {
    const fields: Record<string, string> = credential.chapResponse === undefined
      ? { username: credential.username, password: credential.password }
      : { username: credential.username, response: credential.chapResponse };
    if (context.returnUrl !== null) fields['userurl'] = context.returnUrl;
    return { loginUrl: context.loginUrl, method: 'GET', fields, expiresAt: credential.expiresAt };
  }
  const fields: Record<string, string> = { buttonClicked: '4', username: credential.username, password: credential.password };
  if (context.returnUrl !== null) fields['redirect_url'] = context.returnUrl;
  return { loginUrl: context.loginUrl, method: 'POST', fields, expiresAt: credential.expiresAt };
}

/** The login URL of a context: CoovaChilli's `http://uamip:uamport/logon`, Cisco's `switch_url`. */
export const loginUrlOf = (context: GatewayContext): string =>
  context.style === 'uam' ? `http://${context.uamIp}:${context.uamPort}/logon` : context.switchUrl;
