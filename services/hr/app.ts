import type { Express } from 'express';
import { z } from 'zod';
import { createFaultHarness, createServiceApp, healthRoute, requireApiKey, route, type Logger, type Route } from '../kit/index.js';
import type { HrConfig } from './config.js';
import type { EmployeeDirectory } from './directory.js';
import { createDirectory, loadFixture } from './directory.js';
import { createVerifyLimits } from './limits.js';
import { EmployeeVerifyRequest, EmployeeVerifyResponse } from './schemas.js';

export interface HrDeps {
  directory?: EmployeeDirectory;
}

/** HR verification (spec 4.2): read-only (employeeId, citizenId) check with limits and a fault harness. */
export function createApp(config: HrConfig, logger: Logger, deps: HrDeps = {}): Express {
  const directory = deps.directory ?? createDirectory(loadFixture(config.HR_FIXTURE), config.HR_CITIZEN_HASH_KEY);
  const harnessKey = requireApiKey(config.HR_API_KEYS, 'harness');
  const faults = createFaultHarness({ unavailable: 'HR_SERVICE_UNAVAILABLE', timeout: 'HR_SERVICE_TIMEOUT' }, harnessKey);
  const limits = createVerifyLimits({
    failureLimit: config.HR_FAILURE_LIMIT,
    failureWindowSeconds: config.HR_FAILURE_WINDOW_SECONDS,
    globalLimit: config.HR_GLOBAL_LIMIT,
    globalWindowSeconds: config.HR_GLOBAL_WINDOW_SECONDS,
  });

  const verify = route({
    method: 'post',
    path: '/api/v1/employees/verify',
    summary: 'Check an (employeeId, citizenId) pair against HR records.',
    security: 'apiKey',
    body: EmployeeVerifyRequest,
    steps: [requireApiKey(config.HR_API_KEYS, 'verify'), limits.global],
    responses: {
      200: { description: 'Verification result; inspect verified and active.', schema: EmployeeVerifyResponse },
      400: { description: 'INVALID_REQUEST' },
      401: { description: 'UNAUTHORIZED' },
      429: { description: 'RATE_LIMITED' },
      503: { description: 'HR_SERVICE_UNAVAILABLE' },
      504: { description: 'HR_SERVICE_TIMEOUT' },
    },
    handle: async ({ body }) => {
      await limits.assertNotLocked(body.employeeId);
      await faults.check();
      const outcome = directory.verify(body.employeeId, body.citizenId);
      if (!outcome.matched) await limits.recordFailure(body.employeeId);
      return { status: 200, body: outcome.response };
    },
  });

  const routes: Route[] = [healthRoute('hr', () => ({ ready: true, detail: { fault: faults.current() } })), verify];
  if (config.TEST_HARNESS) {
    routes.push(
      faults.route,
      route({
        method: 'post',
        path: '/admin/reset-limits',
        summary: 'Test harness: clear the verify rate limits (a key with scope harness).',
        security: 'apiKey',
        steps: [harnessKey],
        responses: {
          200: { description: 'Limits cleared.', schema: z.object({ ok: z.literal(true) }) },
          401: { description: 'UNAUTHORIZED: no known key' },
          403: { description: 'FORBIDDEN: the key lacks scope harness' },
        },
        handle: () => {
          limits.reset();
          return { status: 200, body: { ok: true } };
        },
      }),
    );
  }
  return createServiceApp({ service: 'hr', logger, routes });
}
