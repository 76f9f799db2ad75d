import type { Request, Response } from 'express';

export const SID_COOKIE = 'sid';
// Spec 2.4 and 8: the portal cookie lives one hour.
export const SID_LIFETIME_MS = 3_600_000;

/** The `sid` cookie's value. (Hand-written: one cookie, one split; no parser dependency needed.) */
export function readSid(req: Request): string | undefined {
  for (const part of (req.get('cookie') ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === SID_COOKIE) return value.join('=') || undefined;
  }
  return undefined;
}

/**
 * The cookie is Secure when the request came over https (as a trusted proxy reports it) or the
 * portal's public URL is https: behind a TLS-terminating proxy the portal itself hears http.
 */
export function sidCookie(publicUrl: string) {
  const publicHttps = new URL(publicUrl).protocol === 'https:';
  const attributes = (req: Request) => ({ httpOnly: true, sameSite: 'strict' as const, secure: publicHttps || req.secure, path: '/' });
  return {
    set: (req: Request, res: Response, sid: string): void => {
      res.cookie(SID_COOKIE, sid, { ...attributes(req), maxAge: SID_LIFETIME_MS });
    },
    clear: (req: Request, res: Response): void => {
      res.clearCookie(SID_COOKIE, attributes(req));
    },
  };
}
