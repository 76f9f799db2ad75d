import type { RequestHandler } from 'express';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { ApiError } from './errors.js';

export interface Ceiling {
  /** Step counting every request; over the ceiling it answers 429 `RATE_LIMITED` with Retry-After. */
  step: RequestHandler;
  reset(): void;
}

/** A global request ceiling over a fixed window (spec 8: HR verify, loyalty lookup). */
export function createCeiling(limit: number, windowSeconds: number): Ceiling {
  let limiter = new RateLimiterMemory({ points: limit, duration: windowSeconds });
  return {
    step: async (_req, res, next) => {
      try {
        await limiter.consume('global');
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
