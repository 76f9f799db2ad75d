import type { RequestHandler } from 'express';
import { z } from 'zod';
import { ApiError, idempotentReplays, readIdempotencyKey, route, type Route } from '../kit/index.js';
import type { EntitlementStore } from './entitlement-store.js';
import { evaluateEntitlement, type EvaluateDeps } from './evaluate-entitlement.js';
import { PATH_ID_PATTERN } from '../../contract/index.js';
import { Entitlement, EvaluateRequest } from '../../contract/entitlement.js';
import type { TokenFacts, TokenVerifier } from './token-verifier.js';

// Spec 4.3: the body is optional; an absent one reads as no hints.
const optionalBody: RequestHandler = (req, _res, next) => {
  if (req.body === undefined && (req.get('content-length') ?? '0') === '0') req.body = {};
  next();
};

/** Verifies the bearer token before anything else, keeping what it says for the handler. */
function bearer(verify: TokenVerifier): RequestHandler {
  return async (req, res, next) => {
    res.locals.token = await verify(req.get('authorization'));
    next();
  };
}

declare global {
  namespace Express {
    interface Locals {
      token: TokenFacts;
    }
  }
}

export function entitlementRoutes(verify: TokenVerifier, deps: EvaluateDeps, store: EntitlementStore): Route[] {
  const auth = bearer(verify);
  return [
    route({
      method: 'post',
      path: '/api/v1/entitlements/evaluate',
      summary: 'Turns the verified access token into an entitlement (the token is the input; the body only hints).',
      security: 'bearer',
      body: EvaluateRequest,
      steps: [auth],
      bodySteps: [optionalBody],
      responses: {
        201: { description: 'A new entitlement.', schema: Entitlement },
        200: { description: 'Replay: the original entitlement, `replayed: true`.', schema: Entitlement },
        400: { description: 'INVALID_REQUEST' },
        401: { description: 'UNAUTHORIZED: no token, or it failed verification (key-set outage included).' },
        403: { description: 'FORBIDDEN (subjectId contradicts the token) or ENTITLEMENT_DENIED with eligible:false and reason.' },
        409: { description: 'IDEMPOTENCY_KEY_IN_FLIGHT: the first request with this key is still running.' },
        422: { description: 'DMN_EVALUATION_ERROR (never a denial) or IDEMPOTENCY_KEY_REUSED.' },
        503: { description: 'DMN_UNAVAILABLE: no decision could be had (fail closed).' },
      },
      handle: async ({ body, req, res, correlationId }) => {
        const outcome = await evaluateEntitlement(deps, res.locals.token, body, readIdempotencyKey(req), correlationId, res.locals.log);
        if (outcome.replayed) idempotentReplays.inc({ service: 'entitlement' });
        return { status: outcome.status, body: { ...outcome.entitlement, replayed: outcome.replayed } };
      },
    }),
    route({
      method: 'get',
      path: '/api/v1/entitlements/:entitlementId',
      summary: "Reads one of the caller's entitlements.",
      security: 'bearer',
      params: { entitlementId: z.string().regex(PATH_ID_PATTERN, 'must match ^[A-Za-z0-9-]{1,64}$') },
      steps: [auth],
      responses: {
        200: { description: 'The entitlement.', schema: Entitlement },
        400: { description: 'INVALID_REQUEST' },
        401: { description: 'UNAUTHORIZED' },
        404: { description: "NOT_FOUND: unknown, or another subject's." },
      },
      handle: async ({ params: { entitlementId }, res }) => {
        const entitlement = await store.byId(entitlementId);
        // Another subject's entitlement reads exactly like an unknown one.
        if (entitlement === undefined || entitlement.subjectId !== res.locals.token.subjectId) {
          throw new ApiError('NOT_FOUND', { message: 'No entitlement has this id.' });
        }
        return { status: 200, body: { ...entitlement, replayed: false } };
      },
    }),
  ];
}
