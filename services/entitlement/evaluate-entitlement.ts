import { randomUUID } from 'node:crypto';
import { ApiError, type DenialReason, type Logger } from '../kit/index.js';
import type { DecisionClient, DecisionOutputs } from './decision-client.js';
import type { EntitlementBody, EntitlementStore, Prior } from './entitlement-store.js';
import type { LoyaltyClient, LoyaltyVerdict } from './loyalty-client.js';
import type { Allowance, EvaluateRequest } from '../../contract/entitlement.js';
import type { LookupKey } from '../../contract/loyalty.js';
import type { TokenFacts } from './token-verifier.js';

export interface EvaluateDeps {
  store: EntitlementStore;
  loyalty: LoyaltyClient;
  decisions: DecisionClient;
  now: () => Date;
}

export interface Evaluated {
  status: 200 | 201;
  entitlement: EntitlementBody;
  replayed: boolean;
}

const DENIAL_REASONS = new Set(['COMPANY_NOT_ELIGIBLE', 'EMPLOYEE_NOT_VERIFIED', 'UNKNOWN_USER_TYPE']);

function denied(reason: string | null): ApiError {
  const known = reason !== null && DENIAL_REASONS.has(reason) ? (reason as DenialReason) : 'UNKNOWN_USER_TYPE';
  return new ApiError('ENTITLEMENT_DENIED', { reason: known, eligible: false });
}

/** A key settled before answers its original outcome (IETF Idempotency-Key draft), or 422 for another subject or session. */
function answerPrior(prior: Prior): Evaluated {
  if (prior.kind === 'reused') throw new ApiError('IDEMPOTENCY_KEY_REUSED');
  if (prior.entitlement === undefined) throw denied(prior.denialReason);
  return { status: 200, entitlement: prior.entitlement, replayed: true };
}

/** Spec 4.3 rule 6 and 4.5 rule 4: customers are CUSTOMER or an empty (freshly registered) type. */
const isCustomer = (userType: string | null) => userType === null || userType === '' || userType === 'CUSTOMER';

/** Spec 2.6 sourceRef: the employee reference, the member reference, or null for a plain login. */
function sourceRef(sourceType: string | null, facts: TokenFacts, loyalty: LoyaltyVerdict): string | null {
  if (sourceType === 'EMPLOYEE_VERIFICATION') return facts.employeeRef;
  if (sourceType === 'LOYALTY_TIER') return loyalty.memberRef;
  return null;
}

const MEGABYTE = 2 ** 20;

/** The table's allowance outputs (MB, minutes) as the entitlement carries them (bytes, seconds); null when nothing is limited. */
export function allowanceOf(outputs: DecisionOutputs): Allowance | null {
  const { dataAllowanceMb: data, timeAllowanceMinutes: minutes } = outputs;
  if (data === null && minutes === null) return null;
  return {
    dataBytes: data === null ? null : Math.round(data * MEGABYTE),
    timeSeconds: minutes === null ? null : Math.round(minutes * 60),
    // A limit without a period is a daily one: the most common fair-use rule.
    period: outputs.allowancePeriod ?? 'DAY',
  };
}

function build(facts: TokenFacts, sessionId: string | null, outputs: DecisionOutputs, loyalty: LoyaltyVerdict, at: Date): EntitlementBody {
  const ttl = outputs.ttlSeconds;
  if (
    outputs.entitlementType === null ||
    outputs.tier === null ||
    outputs.qosClass === null ||
    outputs.deviceSlots === null ||
    outputs.sourceType === null ||
    ttl === null
  ) {
    throw new ApiError('DMN_EVALUATION_ERROR', { message: 'The decision granted access without a complete permission.' });
  }
  return {
    entitlementId: `ent-${randomUUID()}`,
    subjectId: facts.subjectId,
    sessionId,
    eligible: true,
    entitlementType: outputs.entitlementType,
    status: 'ACTIVE',
    validFrom: at.toISOString(),
    validUntil: new Date(at.getTime() + ttl * 1000).toISOString(),
    permission: {
      tier: outputs.tier,
      qosClass: outputs.qosClass,
      deviceSlots: outputs.deviceSlots,
      sourceType: outputs.sourceType,
      sourceRef: sourceRef(outputs.sourceType, facts, loyalty),
      allowance: allowanceOf(outputs),
    },
    issuedAt: at.toISOString(),
  };
}

/**
 * Spec 4.3: the token is the input; the body only hints. Loyalty for customers, then the
 * decision; an ACTIVE entitlement is stored, a denial answered 403. A key, or a (subject,
 * session) pair, already answered replays its original outcome.
 */
export async function evaluateEntitlement(
  deps: EvaluateDeps,
  facts: TokenFacts,
  body: EvaluateRequest,
  key: string | undefined,
  correlationId: string,
  log: Logger,
): Promise<Evaluated> {
  if (body.subjectId !== undefined && body.subjectId !== facts.subjectId) {
    throw new ApiError('FORBIDDEN', { message: 'subjectId does not match the token.' });
  }
  if (body.userType !== undefined && body.userType !== (facts.userType ?? '')) {
    log.warn({ hinted: body.userType, token: facts.userType }, 'body userType contradicts the token; the token wins');
  }
  const sessionId = body.sessionId ?? null;

  if (key !== undefined) {
    const claim = await deps.store.claim(key, facts.subjectId, sessionId);
    if (claim.kind === 'in-flight') throw new ApiError('IDEMPOTENCY_KEY_IN_FLIGHT');
    if (claim.kind !== 'claimed') return answerPrior(claim);
  }
  let outcome: Evaluated | Prior;
  try {
    outcome = await decide(deps, facts, sessionId, key, correlationId, log);
  } catch (error) {
    if (key === undefined || (error instanceof ApiError && error.code === 'ENTITLEMENT_DENIED')) throw error;
    await deps.store.release(key);
    // PGlite stores no claim: a key settled before is found when the work is done, or here when it
    // failed (the decision service down, say), where its original outcome still answers.
    const prior = await deps.store.settledBefore(key, facts.subjectId, sessionId);
    if (prior !== undefined) return answerPrior(prior);
    throw error;
  }
  return 'kind' in outcome ? answerPrior(outcome) : outcome;
}

/** Loyalty is asked by a verified email, else by a verified phone number, else not at all. */
function loyaltyKey(facts: TokenFacts): LookupKey | null {
  if (facts.emailVerified && facts.email !== null) return { email: facts.email };
  return facts.verifiedPhone === null ? null : { phone: facts.verifiedPhone };
}

/** The work behind a claimed key (or none): the answer, or the key's earlier settlement. */
async function decide(
  deps: EvaluateDeps,
  facts: TokenFacts,
  sessionId: string | null,
  key: string | undefined,
  correlationId: string,
  log: Logger,
): Promise<Evaluated | Prior> {
  if (sessionId !== null) {
    const original = await deps.store.bySession(facts.subjectId, sessionId);
    if (original !== undefined) {
      if (key !== undefined) await deps.store.save(original, sessionId, key);
      return { status: 200, entitlement: original, replayed: true };
    }
  }
  const loyalty = isCustomer(facts.userType)
    ? await deps.loyalty.lookup(loyaltyKey(facts), correlationId, log)
    : { source: 'skipped' as const, memberTier: null, wifiBenefit: null, memberRef: null };
  // Every input the platform knows, so an operator can add a column without a code change.
  const decision = await deps.decisions.decide(
    {
      userType: facts.userType,
      employeeVerified: facts.employeeVerified,
      company: facts.company,
      memberTier: loyalty.memberTier,
      wifiBenefit: loyalty.wifiBenefit,
      wifiEligible: facts.wifiEligible,
    },
    correlationId,
    log,
  );
  if (decision.kind === 'unavailable') throw new ApiError('DMN_UNAVAILABLE');
  if (decision.kind === 'model-error')
    throw new ApiError('DMN_EVALUATION_ERROR', { message: `The decision model could not be evaluated: ${decision.message}.` });
  if (!decision.outputs.eligible) {
    const prior =
      key === undefined ? undefined : await deps.store.settleDenial(key, decision.outputs.reason ?? 'UNKNOWN_USER_TYPE', facts.subjectId, sessionId);
    if (prior !== undefined) return prior;
    log.info({ reason: decision.outputs.reason }, 'entitlement denied');
    throw denied(decision.outputs.reason);
  }
  const saved = await deps.store.save(build(facts, sessionId, decision.outputs, loyalty, deps.now()), sessionId, key);
  if (saved.kind !== 'saved') return saved;
  log.info({ entitlementId: saved.entitlement.entitlementId, loyaltySource: loyalty.source, decidedBy: decision.by }, 'entitlement issued');
  return { status: saved.replayed ? 200 : 201, entitlement: saved.entitlement, replayed: saved.replayed };
}
