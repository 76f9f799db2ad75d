import type { Express } from 'express';
import { createServiceApp, type Logger } from '../kit/index.js';
import type { DecisionConfig } from './config.js';
import { DEFAULT_BOUND } from '../../dmn/engine/index.js';
import { loadDirectory } from '../../dmn/model-directory.js';
import { decisionRoutes } from './routes.js';
import { createRuntimeHolder } from './runtime-holder.js';

/**
 * The decision service (spec 4.5): DMN models from DMN_DIR, compiled once per load, evaluated
 * per request; it stores nothing. It starts even when no model compiles, answering 503
 * DMN_UNAVAILABLE (health too) until a reload succeeds.
 */
export async function createApp(config: DecisionConfig, logger: Logger): Promise<Express> {
  const holder = createRuntimeHolder(() => loadDirectory(config.DMN_DIR));
  const outcome = await holder.reload();
  if (outcome.ok) logger.info({ models: [...outcome.runtime.models.keys()] }, 'decision models loaded');
  else logger.error({ problem: outcome.message }, 'no decision model could be loaded');
  return createServiceApp({ service: 'decision', logger, routes: decisionRoutes(holder, { ...DEFAULT_BOUND, timeLimitMs: config.DMN_EVALUATION_LIMIT_MS }) });
}
