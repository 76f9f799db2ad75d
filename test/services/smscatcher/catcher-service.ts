import type { ExecutionContext } from 'ava';
import { loadConfig } from '../../../services/kit/index.js';
import { createApp } from '../../../services/smscatcher/app.js';
import { SmsCatcherConfig } from '../../../services/smscatcher/config.js';
import { boot, capturingLogger } from '../../helpers/service.js';

/** The SMS catcher booted in-process on a free port; closed when the test ends. */
export async function smsCatcherService(t: ExecutionContext, env: Record<string, string> = {}) {
  const { logger, lines } = capturingLogger('smscatcher');
  const instance = await createApp(loadConfig(SmsCatcherConfig, env), logger);
  t.teardown(() => instance.close());
  const service = await boot(t, instance.app);
  return { service, lines };
}
