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

/**
 * Failed verifications per employee over a sliding window: locked while the last `windowMs`
 * hold `limit` failures (spec 8: "5 within 60 s"). Hand-written rather than rate-limiter-flexible:
 * its memory limiter counts fixed windows, which let up to twice the limit through across a
 * window boundary and can lift a lock a moment after it fell; a log of at most `limit`
 * timestamps per employee is the rule itself.
 */
function slidingFailures(limit: number, windowMs: number, now: () => number) {
  let times = new Map<string, number[]>();
  let writes = 0;
  const recent = (key: string): number[] => {
    const since = now() - windowMs;
    return (times.get(key) ?? []).filter((at) => at > since);
  };
  return {
    locked: (key: string): boolean => recent(key).length >= limit,
    record(key: string): void {
      const kept = [...recent(key), now()].slice(-limit);
      times.set(key, kept);
      // Employees who stopped failing are dropped now and then, so the map stays small.
      if (++writes % 1000 === 0) {
        for (const other of [...times.keys()]) if (recent(other).length === 0) times.delete(other);
      }
    },
    reset(): void {
      times = new Map();
    },
  };
}

/** Spec 8 HR limits: failures keyed by employeeId (never the caller's address) and a global ceiling. */
export function createVerifyLimits(settings: LimitSettings, now: () => number = Date.now): VerifyLimits {
  const failures = slidingFailures(settings.failureLimit, settings.failureWindowSeconds * 1000, now);
  const ceiling = createCeiling(settings.globalLimit, settings.globalWindowSeconds);
  return {
    global: ceiling.step,
    async assertNotLocked(employeeId) {
      if (failures.locked(employeeId)) {
        throw new ApiError('RATE_LIMITED', { message: 'Too many failed verifications for this employee; try again later.' });
      }
    },
    async recordFailure(employeeId) {
      // Reaching the limit is not an error here; the next request is the one refused.
      failures.record(employeeId);
    },
    reset() {
      failures.reset();
      ceiling.reset();
    },
  };
}
