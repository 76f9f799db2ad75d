import { evaluate } from '../../dmn/engine/index.js';
import { callJson, OutboundError, type Logger, type OutboundResponse } from '../kit/index.js';
import { loadDirectory, type Runtime } from '../../dmn/model-directory.js';
import type { EntitlementConfig } from './config.js';
import { DecisionOutputs, EvaluateResults } from '../../contract/decision.js';

export type { DecisionOutputs };

/** `evaluated`; `model-error` (422, never a denial); `unavailable` (no decision could be had: fail closed). */
export type DecisionOutcome =
  | { kind: 'evaluated'; outputs: DecisionOutputs; by: 'service' | 'local' }
  | { kind: 'model-error'; message: string }
  | { kind: 'unavailable' };

export type DecisionInputs = Record<string, string | boolean | null>;

export interface DecisionClient {
  decide(inputs: DecisionInputs, correlationId: string, log: Logger): Promise<DecisionOutcome>;
}

function outputsOf(value: unknown): DecisionOutputs | undefined {
  const outputs = DecisionOutputs.safeParse(value);
  return outputs.success ? outputs.data : undefined;
}

/**
 * The decision through the decision service (spec 4.3, 4.5). Down (unreachable, timeout, 5xx,
 * no such model) is `unavailable`, unless POLICY_FALLBACK=local: then the same engine evaluates
 * the same model files in this process (loaded once, on first need).
 */
export function createDecisionClient(config: EntitlementConfig): DecisionClient {
  let local: Promise<Runtime | undefined> | undefined;
  const localRuntime = () => (local ??= loadDirectory(config.DMN_DIR).then((outcome) => (outcome.ok ? outcome.runtime : undefined)));

  const decideLocally = async (inputs: DecisionInputs, log: Logger): Promise<DecisionOutcome> => {
    const loaded = (await localRuntime())?.models.get(config.DECISION_MODEL);
    if (loaded === undefined) return { kind: 'unavailable' };
    const result = evaluate(loaded.model, inputs, config.DECISION_NAME);
    if (!result.ok) return { kind: 'model-error', message: 'the local model could not be evaluated' };
    const outputs = outputsOf(result.results[config.DECISION_NAME]);
    log.warn({ policy: 'local' }, 'decision service down; decided by the local fallback');
    return outputs === undefined ? { kind: 'model-error', message: 'the decision has no eligible output' } : { kind: 'evaluated', outputs, by: 'local' };
  };

  return {
    async decide(inputs, correlationId, log) {
      let reply: OutboundResponse | undefined;
      try {
        reply = await callJson({
          url: `${config.DECISION_URL}/api/v1/decisions/${encodeURIComponent(config.DECISION_MODEL)}/evaluate`,
          body: { inputs, decision: config.DECISION_NAME },
          correlationId,
          timeoutMs: config.DECISION_TIMEOUT_MS,
          // An evaluation is a pure function, safe to send again; a connection lost under it
          // (a peer restarting, a reset socket) is one more attempt, a timeout is not (the budget).
          reconnects: 1,
        });
      } catch (error) {
        if (!(error instanceof OutboundError)) throw error;
        reply = undefined;
      }
      if (reply?.status === 200) {
        const results = EvaluateResults.safeParse(reply.body).data?.results;
        const outputs = outputsOf(results?.[config.DECISION_NAME]);
        if (outputs !== undefined) return { kind: 'evaluated', outputs, by: 'service' };
        return { kind: 'model-error', message: `decision '${config.DECISION_NAME}' has no eligible output` };
      }
      if (reply?.status === 422 || reply?.status === 400) {
        return { kind: 'model-error', message: 'the decision model could not evaluate these inputs' };
      }
      log.warn({ status: reply?.status ?? 'no answer' }, 'decision service unavailable');
      return config.POLICY_FALLBACK === 'local' ? decideLocally(inputs, log) : { kind: 'unavailable' };
    },
  };
}
