import type { Request, RequestHandler } from 'express';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { ApiError } from './errors.js';

export interface Ceiling {
  /** Step counting every request; over the ceiling it answers 429 `RATE_LIMITED` with Retry-After. */
  step: RequestHandler;
  reset(): void;
}

/**
 * A request ceiling over a fixed window: global (spec 8: HR verify, loyalty lookup), or one per
 * `keyOf(req)`, e.g. the client address (the portal's employee sign-ins).
 */
export function createCeiling(limit: number, windowSeconds: number, keyOf: (req: Request) => string = () => 'global'): Ceiling {
  let limiter = new RateLimiterMemory({ points: limit, duration: windowSeconds });
  return {
    step: async (req, res, next) => {
      try {
        await limiter.consume(keyOf(req));
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
        res.set('Retry-After', String(Math.max(1, Math.ceil(rejection.msBeforeNext / 1000))));
        throw new ApiError('RATE_LIMITED');
      }
      next();
    },
    reset() {
      limiter = new RateLimiterMemory({ points: limit, duration: windowSeconds });
    },
  };
}
