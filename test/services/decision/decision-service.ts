import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExecutionContext } from 'ava';
import { createApp } from '../../../services/decision/app.js';
import { DecisionConfig } from '../../../services/decision/config.js';
import { loadConfig } from '../../../services/kit/index.js';
import { boot, capturingLogger, type Booted } from '../../helpers/service.js';

export const MODEL_FILE = 'dmn/models/WifiEntitlement.dmn';

/** A fresh directory, by default holding a copy of the shipped model, for tests that edit files; removed when the test ends. */
export async function modelDirectory(t: ExecutionContext, withModel = true): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'dmn-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  if (withModel) await copyFile(MODEL_FILE, join(dir, 'WifiEntitlement.dmn'));
  return dir;
}

/** The decision service booted in-process on a free port, reading models from `dir`; closed when the test ends. */
export async function decisionService(t: ExecutionContext, dir = 'dmn/models', settings: Record<string, string> = {}): Promise<Booted> {
  const config = loadConfig(DecisionConfig, { DMN_DIR: dir, ...settings });
  return boot(t, await createApp(config, capturingLogger('decision').logger));
}

export const evaluatePath = (model = 'WifiEntitlement') => `/api/v1/decisions/${model}/evaluate`;
