import { RateLimiterMemory } from 'rate-limiter-flexible';
import type { RequestHandler } from 'express';
import { ApiError, createCeiling } from '../kit/index.js';

export interface LimitSettings {
  failureLimit: number;
  failureWindowSeconds: number;
  globalLimit: number;
  globalWindowSeconds: number;
}

export interface VerifyLimits {
  /** Step: the global ceiling, counted on every verify request (spec 8). */
  global: RequestHandler;
  /** Throws RATE_LIMITED when this employeeId has used up its failures in the window. */
  assertNotLocked(employeeId: string): Promise<void>;
  /** Counts one failed verification; successes are never counted (spec 8). */
  recordFailure(employeeId: string): Promise<void>;
  /** Test harness `POST /admin/reset-limits`. */
  reset(): void;
}

/** Spec 8 HR limits: failures keyed by employeeId (never the caller's address) and a global ceiling. */
export function createVerifyLimits(settings: LimitSettings): VerifyLimits {
  const makeFailures = () => new RateLimiterMemory({ points: settings.failureLimit, duration: settings.failureWindowSeconds });
  let failures = makeFailures();
  const ceiling = createCeiling(settings.globalLimit, settings.globalWindowSeconds);
  return {
    global: ceiling.step,
    async assertNotLocked(employeeId) {
      const state = await failures.get(employeeId);
      if (state !== null && state.consumedPoints >= settings.failureLimit) {
        throw new ApiError('RATE_LIMITED', { message: 'Too many failed verifications for this employee; try again later.' });
      }
    },
    async recordFailure(employeeId) {
      // Reaching the limit is not an error here; the next request is the one refused.
      await failures.penalty(employeeId, 1);
    },
    reset() {
      failures = makeFailures();
      ceiling.reset();
    },
  };
}
