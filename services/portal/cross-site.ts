import type { Request, RequestHandler } from 'express';
import { ApiError } from '../kit/index.js';

/**
 * Cross-site use (README "Design decisions"): besides SameSite=Strict, a state-changing request
 * must come from the portal's own origin (Origin, or Sec-Fetch-Site when Origin is absent) and
 * carry a JSON content type, which a cross-site HTML form cannot send.
 */
export function crossSiteProblem(req: Request): string | undefined {
  const origin = req.get('origin');
  if (origin !== undefined) {
    if (origin !== `${req.protocol}://${req.get('host') ?? ''}`) return 'cross-origin request';
  } else {
    const site = req.get('sec-fetch-site');
    if (site !== undefined && site !== 'same-origin' && site !== 'none') return 'cross-site request';
  }
  const type = (req.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') return 'content type';
  return undefined;
}

export const sameOriginJson: RequestHandler = (req, _res, next) => {
  const problem = crossSiteProblem(req);
  if (problem === 'content type') throw new ApiError('INVALID_REQUEST', { message: 'Content-Type must be application/json.' });
  if (problem !== undefined) throw new ApiError('FORBIDDEN', { message: 'Requests must come from the portal itself.' });
  next();
};
