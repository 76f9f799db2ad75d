import { z } from 'zod';
import { describeProblem, evaluate, loadModel, type CompiledModel } from '../../dmn/engine/index.js';
import type { AdminContext, RouteResult } from './context.js';
import { isoNow, ok } from './context.js';
import { readBody } from './read-body.js';
import { AdminError } from './wire-error.js';
import { NAME_PATTERN } from '../../contract/ids.js';

/** Realm attribute svc-admin.decisionUrl (realm import, env DECISION_URL). */
const DECISION_URL_KEY = 'decisionUrl';
const RELOAD_TIMEOUT_MS = 5000;
const MODEL_NAME = NAME_PATTERN;

const PutModel = z.object({ xml: z.string().min(1).max(1_000_000) });
const EvaluateModel = z.object({ inputs: z.record(z.string(), z.unknown()), decision: z.string().min(1).max(200).optional() });

const fileOf = (name: string): string => `${name}.dmn`;

function requireModel(context: AdminContext, name: string): { file: string; xml: string } {
  const file = fileOf(name);
  const xml = MODEL_NAME.test(name) ? context.host.models.read(file) : undefined;
  if (xml === undefined) throw new AdminError('MODEL_NOT_FOUND');
  return { file, xml };
}

// One compiled model per document text in this script context, so evaluate does not re-parse.
const compiled = new Map<string, CompiledModel>();

async function compile(xml: string): Promise<CompiledModel> {
  const cached = compiled.get(xml);
  if (cached !== undefined) return cached;
  const outcome = await loadModel(xml);
  if (!outcome.ok) throw new AdminError('DMN_EVALUATION_ERROR', describeProblem(outcome.error));
  if (compiled.size >= 8) compiled.clear();
  compiled.set(xml, outcome.value);
  return outcome.value;
}

export function listModelsRoute(context: AdminContext): RouteResult {
  const models = context.host.models.list().map((file) => ({ name: file.slice(0, -'.dmn'.length), file }));
  return ok({ models, loadedAt: isoNow(context) });
}

export function getModelRoute(context: AdminContext, name: string): RouteResult {
  const { file, xml } = requireModel(context, name);
  return ok({ model: name, file, xml });
}

/** Tells the decision service to re-read its folder; a failure comes back as text for the error message. */
function reload(context: AdminContext): string | undefined {
  const base = context.host.store.get(DECISION_URL_KEY);
  if (base === undefined || base === '') return 'no decision service URL is configured';
  const result = context.host.http.postJson(`${base.replace(/\/+$/, '')}/api/v1/decisions/reload`, '{}', RELOAD_TIMEOUT_MS);
  if ('failure' in result) return `the decision service is ${result.failure === 'timeout' ? 'not answering in time' : 'unreachable'}`;
  return result.status === 200 ? undefined : `the decision service answered HTTP ${result.status}`;
}

/**
 * spec 4.7 rule 8: compile here first; then replace the file atomically and reload the decision
 * service; if that reload fails, the old bytes go back and the service reloads them.
 */
export async function putModelRoute(context: AdminContext, name: string): Promise<RouteResult> {
  const previous = requireModel(context, name);
  const { xml } = readBody(context, PutModel);
  await compile(xml);
  if (!context.host.models.write(previous.file, xml)) throw new AdminError('INTERNAL_ERROR', 'The model file could not be written.');
  const failure = reload(context);
  if (failure !== undefined) {
    context.host.models.write(previous.file, previous.xml);
    const restored = reload(context);
    const tail = restored === undefined ? 'the previous model is restored and reloaded' : `the previous file is restored; its reload also failed: ${restored}`;
    throw new AdminError('UPSTREAM_UNAVAILABLE', `Reload failed (${failure}); ${tail}.`);
  }
  return ok({ saved: true, model: name, file: previous.file, reloadedAt: isoNow(context) });
}

/** spec 4.7 rule 9: evaluated in Keycloak with the same engine; a missing declared input is 422. */
export async function evaluateRoute(context: AdminContext, name: string): Promise<RouteResult> {
  const { xml } = requireModel(context, name);
  const body = readBody(context, EvaluateModel);
  const model = await compile(xml);
  const outcome = evaluate(model, body.inputs, body.decision);
  if (!outcome.ok) {
    if (outcome.error.code === 'DMN_UNKNOWN_DECISION') throw new AdminError('INVALID_REQUEST', 'decision: the model has no decision of that name.');
    throw new AdminError('DMN_EVALUATION_ERROR', describeProblem(outcome.error));
  }
  return ok({ model: name, results: outcome.results, correlationId: context.correlationId });
}
