import type { ExecutionContext } from 'ava';
import { loadConfig } from '../../../services/kit/index.js';
import { createApp } from '../../../services/loyalty/app.js';
import { LoyaltyConfig } from '../../../services/loyalty/config.js';
import { boot, capturingLogger } from '../../helpers/service.js';

export const KEY = { 'X-API-Key': 'dev-loyalty-key' };
/** The tools' development key: the only default key with scope harness (/admin/fault). */
export const HARNESS = { 'X-API-Key': 'dev-loyalty-tools-key' };

/** The loyalty service booted in-process on a free port with its test harness on; closed when the test ends. */
export async function loyaltyService(t: ExecutionContext, env: Record<string, string> = {}) {
  const config = loadConfig(LoyaltyConfig, { TEST_HARNESS: 'true', ...env });
  const service = await boot(t, createApp(config, capturingLogger('loyalty').logger));
  const lookup = (body: unknown, headers: Record<string, string> = KEY) => service.request('POST', '/api/v1/members/lookup', { json: body, headers });
  return { service, lookup };
}
