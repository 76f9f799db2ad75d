import { describeProblem, evaluate, type EvaluationBound } from '../../dmn/engine/index.js';
import { ApiError, healthRoute, route, type Route } from '../kit/index.js';
import type { Runtime } from '../../dmn/model-directory.js';
import type { RuntimeHolder } from './runtime-holder.js';
import { ModelName, EvaluateRequest, EvaluateResponse, ModelList, ReloadResponse } from './schemas.js';

const notServing = (holder: RuntimeHolder) => `No decision model is loaded: ${holder.lastFailure() ?? 'not loaded yet'}.`;

function serving(holder: RuntimeHolder): Runtime {
  const runtime = holder.current();
  if (runtime === null) throw new ApiError('DMN_UNAVAILABLE', { message: notServing(holder) });
  return runtime;
}

function modelList(runtime: Runtime) {
  return {
    models: [...runtime.models.values()].map(({ file, model }) => ({ model: model.name, file, decisions: model.decisions, inputs: model.inputs })),
    loadedAt: runtime.loadedAt,
  };
}

/** Spec 4.5: health, evaluate, list, reload; each evaluation runs under `bound`. */
export function decisionRoutes(holder: RuntimeHolder, bound: EvaluationBound): Route[] {
  // Spec 7: health is 503 with the error object while no model is loaded.
  const health = healthRoute('decision', () => {
    const runtime = holder.current();
    if (runtime === null) return { ready: false, code: 'DMN_UNAVAILABLE', message: notServing(holder) };
    return { ready: true, detail: { models: [...runtime.models.keys()], loadedAt: runtime.loadedAt, lastReloadFailure: holder.lastFailure() } };
  });

  const evaluateRoute = route({
    method: 'post',
    path: '/api/v1/decisions/:model/evaluate',
    summary: 'Evaluate a model, or one of its decisions, against the inputs.',
    params: { model: ModelName },
    body: EvaluateRequest,
    responses: {
      200: { description: 'Outputs by decision.', schema: EvaluateResponse },
      400: { description: 'INVALID_REQUEST: no inputs, not JSON, or no such decision in the model.' },
      404: { description: 'MODEL_NOT_FOUND' },
      422: {
        description: 'DMN_EVALUATION_ERROR: the model cannot evaluate these inputs, or its evaluation ran past DMN_EVALUATION_LIMIT_MS (never a denial).',
      },
      503: { description: 'DMN_UNAVAILABLE: no model is loaded.' },
    },
    handle: ({ body, params: { model }, correlationId }) => {
      // Taken once: a reload during this request does not change the model it evaluates.
      const loaded = serving(holder).models.get(model);
      if (loaded === undefined) throw new ApiError('MODEL_NOT_FOUND');
      const outcome = evaluate(loaded.model, body.inputs, body.decision, bound);
      if (!outcome.ok) {
        if (outcome.error.code === 'DMN_UNKNOWN_DECISION')
          throw new ApiError('INVALID_REQUEST', { message: 'decision: the model has no decision of that name.' });
        throw new ApiError('DMN_EVALUATION_ERROR', { message: describeProblem(outcome.error) });
      }
      // Values an item definition rejected are null, each with a problem (DMN 1.3 section 7.3.2).
      const problems =
        outcome.problems === undefined ? {} : { problems: outcome.problems.map((p) => ({ decision: p.decision, cell: p.cell, message: p.message })) };
      return { status: 200, body: { model: loaded.model.name, results: outcome.results, ...problems, correlationId, timestamp: new Date().toISOString() } };
    },
  });

  const listRoute = route({
    method: 'get',
    path: '/api/v1/decisions',
    summary: 'The loaded models, their source files and when they were loaded.',
    responses: { 200: { description: 'Loaded models.', schema: ModelList }, 503: { description: 'DMN_UNAVAILABLE' } },
    handle: () => ({ status: 200, body: modelList(serving(holder)) }),
  });

  const reloadRoute = route({
    method: 'post',
    path: '/api/v1/decisions/reload',
    summary: 'Re-read and compile every decision file; swap them in only if all compile (no authentication: a known gap, spec 4.5).',
    responses: {
      200: { description: 'The new runtime is serving.', schema: ReloadResponse },
      422: { description: 'DMN_EVALUATION_ERROR: a file does not compile; the previous models keep serving. The message names the file and the problem.' },
      503: { description: 'DMN_UNAVAILABLE: nothing compiled and nothing was serving before.' },
    },
    handle: async ({ res }) => {
      const outcome = await holder.reload();
      if (outcome.ok) {
        res.locals.log.info({ models: [...outcome.runtime.models.keys()] }, 'decision models reloaded');
        return { status: 200, body: { reloaded: true, ...modelList(outcome.runtime) } };
      }
      res.locals.log.warn({ problem: outcome.message }, 'decision model reload failed');
      if (holder.current() === null) throw new ApiError('DMN_UNAVAILABLE', { message: `Reload failed and no model is loaded: ${outcome.message}` });
      throw new ApiError('DMN_EVALUATION_ERROR', { message: `Reload failed; the previous models keep serving: ${outcome.message}` });
    },
  });

  return [health, evaluateRoute, listRoute, reloadRoute];
}
