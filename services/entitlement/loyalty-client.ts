import { BrokenCircuitError, circuitBreaker, CircuitState, ConsecutiveBreaker, handleAll } from 'cockatiel';
import { breakerState, callJson, OutboundError, type Logger, type OutboundResponse } from '../kit/index.js';
import type { EntitlementConfig } from './config.js';
import { LookupResponse, type LookupKey } from '../../contract/loyalty.js';

/** Spec 4.6: how a lookup ended. The first three are normal; the rest are logged at warn. */
export type LoyaltySource = 'loyalty' | 'not-a-member' | 'skipped' | 'timeout' | 'unreachable' | `http-${number}` | 'not-configured' | 'bad-response';

export interface LoyaltyVerdict {
  source: LoyaltySource;
  memberTier: string | null;
  wifiBenefit: boolean | null;
  memberRef: string | null;
}

export interface LoyaltyClient {
  /** Never throws: every failure is a verdict with no tier (spec 4.6). */
  lookup(key: LookupKey | null, correlationId: string, log: Logger): Promise<LoyaltyVerdict>;
  breakerState(): 'closed' | 'open' | 'half-open';
}

const noTier = (source: LoyaltySource): LoyaltyVerdict => ({ source, memberTier: null, wifiBenefit: null, memberRef: null });
const NORMAL = new Set<LoyaltySource>(['loyalty', 'not-a-member', 'skipped']);

/** A failed lookup, thrown inside the breaker so that it counts as a failure there. */
class LookupFailure extends Error {
  constructor(readonly source: LoyaltySource) {
    super(source);
  }
}

const STATES: Record<CircuitState, 'closed' | 'open' | 'half-open'> = {
  [CircuitState.Closed]: 'closed',
  [CircuitState.Open]: 'open',
  [CircuitState.HalfOpen]: 'half-open',
  [CircuitState.Isolated]: 'open',
};

/**
 * Loyalty lookup (spec 4.6, 8: 2000 ms, no retry) behind a circuit breaker: while loyalty keeps
 * failing, lookups are not attempted and answer at once with no tier (the customer baseline);
 * after the half-open delay one probe decides whether it closes again.
 */
export function createLoyaltyClient(config: EntitlementConfig, logger: Logger): LoyaltyClient {
  const breaker = circuitBreaker(handleAll, {
    halfOpenAfter: config.LOYALTY_BREAKER_HALF_OPEN_MS,
    breaker: new ConsecutiveBreaker(config.LOYALTY_BREAKER_FAILURES),
  });
  const BREAKER_GAUGE = { closed: 0, 'half-open': 1, open: 2 } as const;
  breakerState.set({ breaker: 'loyalty' }, 0);
  breaker.onStateChange((state) => {
    logger.warn({ loyaltyBreaker: STATES[state] }, 'loyalty circuit breaker changed state');
    breakerState.set({ breaker: 'loyalty' }, BREAKER_GAUGE[STATES[state]]);
  });

  const ask = async (key: LookupKey, correlationId: string): Promise<LoyaltyVerdict> => {
    let reply: OutboundResponse;
    try {
      reply = await callJson({
        url: `${config.LOYALTY_URL}/api/v1/members/lookup`,
        body: key,
        headers: { 'X-API-Key': config.LOYALTY_API_KEY },
        correlationId,
        timeoutMs: config.LOYALTY_TIMEOUT_MS,
      });
    } catch (error) {
      throw new LookupFailure(error instanceof OutboundError ? error.failure : 'unreachable');
    }
    if (reply.status !== 200) throw new LookupFailure(`http-${reply.status}`);
    const member = LookupResponse.safeParse(reply.body);
    if (!member.success) throw new LookupFailure('bad-response');
    if (!member.data.found) return noTier('not-a-member');
    return { source: 'loyalty', memberTier: member.data.tier, wifiBenefit: member.data.wifiBenefit, memberRef: member.data.memberRef };
  };

  return {
    async lookup(key, correlationId, log) {
      let verdict: LoyaltyVerdict;
      if (config.LOYALTY_URL === '') verdict = noTier('not-configured');
      else if (key === null) verdict = noTier('skipped');
      else {
        try {
          verdict = await breaker.execute(() => ask(key, correlationId));
        } catch (error) {
          if (error instanceof LookupFailure) verdict = noTier(error.source);
          else if (error instanceof BrokenCircuitError) verdict = noTier('unreachable');
          else verdict = noTier('unreachable');
        }
      }
      if (NORMAL.has(verdict.source)) log.info({ loyaltySource: verdict.source }, 'loyalty lookup');
      else log.warn({ loyaltySource: verdict.source, loyaltyBreaker: STATES[breaker.state] }, 'loyalty lookup failed; customer baseline');
      return verdict;
    },
    breakerState: () => STATES[breaker.state],
  };
}
