import type { Request, RequestHandler } from 'express';
import { ApiError } from '../kit/index.js';

export interface CrossSiteGuard {
  problem(req: Request, hasBody: boolean): string | undefined;
  /** For the routes with a JSON body. */
  sameOriginJson: RequestHandler;
  /** For the bodyless state-changing routes that may refuse (refresh). */
  sameOrigin: RequestHandler;
}

const refuse = (problem: string | undefined): void => {
  if (problem === 'content type') throw new ApiError('INVALID_REQUEST', { message: 'Content-Type must be application/json.' });
  if (problem !== undefined) throw new ApiError('FORBIDDEN', { message: 'Requests must come from the portal itself.' });
};

/**
 * Cross-site use (docs/decisions/0051-cross-site-use.md): besides SameSite=Strict, a state-changing request
 * must come from the portal's own origin (Origin, or Sec-Fetch-Site when Origin is absent), and
 * one that carries a body must carry a JSON content type, which a cross-site HTML form cannot
 * send. Refresh and logout have no body (spec 4.1), so they need no content type.
 * The portal's origin is its public URL (behind a TLS-terminating proxy the browser's origin is
 * https while the portal itself hears http), or the origin the request itself was addressed to,
 * whose scheme comes from X-Forwarded-Proto only when a trusted proxy sent it.
 */
export function crossSiteGuard(publicUrl: string): CrossSiteGuard {
  const publicOrigin = new URL(publicUrl).origin;
  const problem = (req: Request, hasBody: boolean): string | undefined => {
    const origin = req.get('origin');
    if (origin !== undefined) {
      if (origin !== publicOrigin && origin !== `${req.protocol}://${req.get('host') ?? ''}`) return 'cross-origin request';
    } else {
      const site = req.get('sec-fetch-site');
      if (site !== undefined && site !== 'same-origin' && site !== 'none') return 'cross-site request';
    }
    if (!hasBody) return undefined;
    const type = (req.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
    if (type !== 'application/json') return 'content type';
    return undefined;
  };
  return {
    problem,
    sameOriginJson: (req, _res, next) => {
      refuse(problem(req, true));
      next();
    },
    sameOrigin: (req, _res, next) => {
      refuse(problem(req, false));
      next();
    },
  };
}
