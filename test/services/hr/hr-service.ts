import type { ExecutionContext } from 'ava';
import { loadConfig } from '../../../services/kit/index.js';
import { createApp } from '../../../services/hr/app.js';
import { HrConfig } from '../../../services/hr/config.js';
import { boot, capturingLogger } from '../../helpers/service.js';

export const KEY = { 'X-API-Key': 'dev-hr-key' };
/** The tools' development key: the only default key with scope harness (the /admin/* routes). */
export const HARNESS = { 'X-API-Key': 'dev-hr-tools-key' };

// Synthetic demo employees (README): raw numbers live only in tests and docs, never in the fixture.
export const ACTIVE = { employeeId: 'A-1001', citizenId: '079201001234' };
export const INACTIVE = { employeeId: 'A-1002', citizenId: '079201002345' };
export const NOT_WIFI_ELIGIBLE = { employeeId: 'C-3001', citizenId: '079203004567' };
export const PARTNER = { employeeId: 'X-9001', citizenId: '079209006789' };
export const NINE_DIGITS = { employeeId: 'B-2002', citizenId: '123456789' };

export async function hrService(t: ExecutionContext, env: Record<string, string> = {}) {
  const { logger, lines } = capturingLogger('hr');
  const config = loadConfig(HrConfig, { TEST_HARNESS: 'true', ...env });
  const service = await boot(t, createApp(config, logger));
  const verify = (body: unknown, headers: Record<string, string> = KEY) => service.request('POST', '/api/v1/employees/verify', { json: body, headers });
  return { service, verify, lines };
}
