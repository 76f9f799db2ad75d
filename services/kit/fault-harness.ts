import type { RequestHandler } from 'express';
import { z } from 'zod';
import { ApiError, type ErrorCode } from './errors.js';
import { route, type Route } from './route.js';

export const FaultRequest = z.object({
  mode: z.enum(['none', 'timeout', 'unavailable']),
  delayMs: z.number().int().min(0).max(120_000).default(0),
});
export type Fault = z.output<typeof FaultRequest>;
const FaultSet = z.object({ ok: z.literal(true), fault: z.object({ mode: FaultRequest.shape.mode, delayMs: z.number().int() }) });

export interface FaultHarness {
  /** The current fault, for `/health`. */
  current(): Fault;
  /**
   * `POST /admin/fault`; mount only when the harness setting is on, so it is 404 otherwise. When
   * on it still needs the service's key with scope `harness`: a harness left on
   * by mistake is no switch for strangers.
   */
  route: Route;
  /** Throws the configured fault, after its delay; resolves at once when there is none. */
  check(): Promise<void>;
}

export interface FaultCodes {
  unavailable: ErrorCode;
  timeout: ErrorCode;
}

/**
 * Test-harness fault injection (spec 4.2 rule 6, 4.6). `unavailable` answers 503 at once;
 * `timeout` holds the request for `delayMs`, then answers 504, as a service whose own backend
 * timed out would. Callers with shorter budgets see a timeout of their own first.
 */
export function createFaultHarness(codes: FaultCodes, guard: RequestHandler): FaultHarness {
  let fault: Fault = { mode: 'none', delayMs: 0 };
  return {
    current: () => ({ ...fault }),
    route: route({
      method: 'post',
      path: '/admin/fault',
      summary: 'Test harness: set the fault mode (a key with scope harness).',
      security: 'apiKey',
      body: FaultRequest,
      steps: [guard],
      responses: {
        200: { description: 'Fault set.', schema: FaultSet },
        400: { description: 'INVALID_REQUEST: unknown mode or delayMs out of range.' },
        401: { description: 'UNAUTHORIZED: no known key' },
        403: { description: 'FORBIDDEN: the key lacks scope harness' },
      },
      handle: ({ body }) => {
        fault = body;
        return { status: 200, body: { ok: true, fault } };
      },
    }),
    async check() {
      const { mode, delayMs } = fault;
      if (mode === 'unavailable') throw new ApiError(codes.unavailable);
      if (mode === 'timeout') {
        await new Promise((resolve) => setTimeout(resolve, delayMs));
        throw new ApiError(codes.timeout);
      }
    },
  };
}
