import type { Express } from 'express';
import { createCeiling, createFaultHarness, createServiceApp, healthRoute, requireApiKey, route, type Logger, type Route } from '../kit/index.js';
import type { LoyaltyConfig } from './config.js';
import { createMemberLookup, loadMembers, type MemberLookup } from './members.js';
import { LookupRequest, LookupResponse } from './schemas.js';

export interface LoyaltyDeps {
  lookup?: MemberLookup;
}

/** Loyalty lookup (spec 4.6): member tier verdict for an email; enriches, never gates. */
export function createApp(config: LoyaltyConfig, logger: Logger, deps: LoyaltyDeps = {}): Express {
  const lookup = deps.lookup ?? createMemberLookup(loadMembers(config.LOYALTY_FIXTURE));
  const faults = createFaultHarness(
    { unavailable: 'LOYALTY_SERVICE_UNAVAILABLE', timeout: 'LOYALTY_SERVICE_TIMEOUT' },
    requireApiKey(config.LOYALTY_API_KEYS, 'harness'),
  );
  const ceiling = createCeiling(config.LOYALTY_GLOBAL_LIMIT, config.LOYALTY_GLOBAL_WINDOW_SECONDS);

  const routes: Route[] = [
    healthRoute('loyalty', () => ({ ready: true, detail: { fault: faults.current() } })),
    route({
      method: 'post',
      path: '/api/v1/members/lookup',
      summary: 'Member tier verdict for an email.',
      security: 'apiKey',
      body: LookupRequest,
      steps: [requireApiKey(config.LOYALTY_API_KEYS, 'lookup'), ceiling.step],
      responses: {
        200: { description: 'Member or {found:false}.', schema: LookupResponse },
        400: { description: 'INVALID_REQUEST' },
        401: { description: 'UNAUTHORIZED' },
        429: { description: 'RATE_LIMITED' },
        503: { description: 'LOYALTY_SERVICE_UNAVAILABLE (fault injection only)' },
        504: { description: 'LOYALTY_SERVICE_TIMEOUT (fault injection only)' },
      },
      handle: async ({ body }) => {
        await faults.check();
        return { status: 200, body: lookup(body.email !== undefined ? { email: body.email } : { phone: body.phone ?? '' }) };
      },
    }),
  ];
  if (config.TEST_HARNESS) routes.push(faults.route);
  return createServiceApp({ service: 'loyalty', logger, routes });
}
