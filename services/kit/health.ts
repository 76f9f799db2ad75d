import type { ErrorCode } from './errors.js';
import { ApiError } from './errors.js';
import { route, type Route } from './route.js';
import { z } from 'zod';

export type Readiness = { ready: true; detail?: Record<string, unknown> } | { ready: false; code: ErrorCode; message: string };

const HealthBody = z.object({ status: z.literal('UP'), service: z.string() }).loose();

/** `GET /health`: 200 `{status:'UP', service, ...detail}`, or 503 with the error object when not ready. */
export function healthRoute(service: string, readiness: () => Readiness | Promise<Readiness> = () => ({ ready: true })): Route {
  return route({
    method: 'get',
    path: '/health',
    summary: 'Liveness and readiness probe.',
    responses: { 200: { description: 'Ready.', schema: HealthBody }, 503: { description: 'Not ready.' } },
    handle: async () => {
      const state = await readiness();
      if (!state.ready) throw new ApiError(state.code, { message: state.message, status: 503 });
      return { status: 200, body: { status: 'UP', service, ...state.detail } };
    },
  });
}
