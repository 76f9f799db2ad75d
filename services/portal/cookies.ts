import { randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';
import { sidHash } from './token-crypto.js';

export const SID_COOKIE = 'sid';
// Spec 2.4 and 8: the portal cookie lives one hour.
export const SID_LIFETIME_MS = 3_600_000;
/**
 * The cookie naming the browser's last sign-in, so the next sign-in ends it even
 * after the one-hour `sid` expired (the network session and the identity provider's session can
 * outlive it). It holds the key the sign-in is stored under (the sid's hash), not the sid: it can
 * end that sign-in but never act as it (a sid is hashed again before any lookup). A day covers
 * every network session the decision table grants (hours); the store keeps an expired sign-in as
 * long, for ending only (portal-session-store.ts).
 */
export const PREVIOUS_COOKIE = 'psid';
export const PREVIOUS_LIFETIME_MS = 24 * 3_600_000;
const STORE_KEY = /^[0-9a-f]{64}$/;
/** The browser's device handle: a year, so the same browser is the same device next time. */
export const DEVICE_COOKIE = 'did';
const DEVICE_LIFETIME_MS = 365 * 24 * 3_600_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** A cookie's value. (Hand-written: one header, one split; no parser dependency needed.) */
function readCookie(req: Request, name: string): string | undefined {
  for (const part of (req.get('cookie') ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=') || undefined;
  }
  return undefined;
}

/** The `sid` cookie's value. */
export const readSid = (req: Request): string | undefined => readCookie(req, SID_COOKIE);
/** The store key of the browser's last sign-in (`psid`), when well-formed. */
export const readPreviousKey = (req: Request): string | undefined => {
  const key = readCookie(req, PREVIOUS_COOKIE);
  return key !== undefined && STORE_KEY.test(key) ? key : undefined;
};
/** The cookie naming the gateway context kept for the sign-in that follows. */
export const GATEWAY_COOKIE = 'gw';
export const readGatewayCookie = (req: Request): string | undefined => readCookie(req, GATEWAY_COOKIE);

/**
 * The cookies are Secure when the request came over https (as a trusted proxy reports it) or the
 * portal's public URL is https: behind a TLS-terminating proxy the portal itself hears http.
 */
export function sidCookie(publicUrl: string) {
  const publicHttps = new URL(publicUrl).protocol === 'https:';
  const attributes = (req: Request) => ({ httpOnly: true, sameSite: 'strict' as const, secure: publicHttps || req.secure, path: '/' });
  return {
    /** The portal session's cookie, the key of this sign-in (`psid`) and the browser's device handle (kept a year). */
    set: (req: Request, res: Response, sid: string, device: string): void => {
      res.cookie(SID_COOKIE, sid, { ...attributes(req), maxAge: SID_LIFETIME_MS });
      res.cookie(PREVIOUS_COOKIE, sidHash(sid), { ...attributes(req), maxAge: PREVIOUS_LIFETIME_MS });
      res.cookie(DEVICE_COOKIE, device, { ...attributes(req), maxAge: DEVICE_LIFETIME_MS });
    },
    clear: (req: Request, res: Response): void => {
      res.clearCookie(SID_COOKIE, attributes(req));
      res.clearCookie(PREVIOUS_COOKIE, attributes(req));
    },
    gateway: (req: Request, res: Response, id: string, maxAge: number): void => {
      res.cookie(GATEWAY_COOKIE, id, { ...attributes(req), maxAge });
    },
    /** A gateway context is used once. */
    clearGateway: (req: Request, res: Response): void => {
      res.clearCookie(GATEWAY_COOKIE, attributes(req));
    },
  };
}

/**
 * The device handle of this browser when no gateway names the device: the `did`
 * cookie's uuid, or a new one (set with the sign-in it serves). Its deviceRef `dev-<uuid>` is
 * opaque, never a MAC (spec 2.7); signing in again from the same browser replaces that device's
 * session instead of taking another slot.
 */
export function deviceOf(req: Request): { handle: string; deviceRef: string } {
  const kept = readCookie(req, DEVICE_COOKIE);
  const handle = kept !== undefined && UUID.test(kept) ? kept : randomUUID();
  return { handle, deviceRef: `dev-${handle}` };
}
