import type { AllowanceLeft, UsageReport, UsageReported } from '../../contract/session.js';
import { callJson, OutboundError } from '../kit/index.js';

/** The fields of a session (spec 2.7) the gateway decides on. */
export interface SessionView {
  sessionId: string;
  deviceRef: string | null;
  state: string;
  tier: string | null;
  qosClass: string | null;
  expiresAt: string | null;
  /** What the person has left of the session's allowance now; null or absent: no limit. */
  remaining?: AllowanceLeft | null;
}

export type SessionLookup = { kind: 'found'; session: SessionView } | { kind: 'not-found' } | { kind: 'unavailable' };

export interface SessionPeer {
  read(sessionId: string, correlationId: string): Promise<SessionLookup>;
  /** The feed after `after`; `waitSeconds` > 0: the session service holds an empty answer that long for a change. */
  changes(
    after: string,
    correlationId: string,
    waitSeconds?: number,
    signal?: AbortSignal,
  ): Promise<{ changes: { sessionId: string; state: string; fromState?: string | null }[]; next: string } | undefined>;
  /** Ends a session (the person logged off at the gateway); false when the session service did not. */
  revoke(sessionId: string, correlationId: string): Promise<boolean>;
  /** Adds connections' usage to the allowance counters; undefined when the session service did not answer. */
  reportUsage?(reports: UsageReport[], correlationId: string): Promise<UsageReported | undefined>;
}

/** The session service over HTTP (spec 4.4 and its change feed); no answer is `unavailable`, never a grant. */
export function sessionPeer(config: { SESSION_URL: string; GATEWAY_SESSION_KEY: string; SESSION_TIMEOUT_MS: number }): SessionPeer {
  const headers = { 'X-API-Key': config.GATEWAY_SESSION_KEY };
  const get = async (path: string, correlationId: string, heldMs = 0, signal?: AbortSignal) => {
    try {
      return await callJson({
        method: 'GET',
        url: `${config.SESSION_URL}${path}`,
        headers,
        correlationId,
        timeoutMs: config.SESSION_TIMEOUT_MS + heldMs,
        signal,
      });
    } catch (error) {
      if (error instanceof OutboundError) return undefined;
      throw error;
    }
  };
  return {
    async read(sessionId, correlationId) {
      const answer = await get(`/api/v1/sessions/${encodeURIComponent(sessionId)}`, correlationId);
      if (answer === undefined) return { kind: 'unavailable' };
      if (answer.status === 404) return { kind: 'not-found' };
      const body = answer.body as Partial<SessionView> | undefined;
      if (answer.status !== 200 || typeof body?.state !== 'string' || body.sessionId !== sessionId) return { kind: 'unavailable' };
      return { kind: 'found', session: body as SessionView };
    },
    async revoke(sessionId, correlationId) {
      try {
        const answer = await callJson({
          method: 'POST',
          url: `${config.SESSION_URL}/api/v1/sessions/${encodeURIComponent(sessionId)}/revoke`,
          headers,
          correlationId,
          timeoutMs: config.SESSION_TIMEOUT_MS,
        });
        return answer.status === 200;
      } catch (error) {
        if (error instanceof OutboundError) return false;
        throw error;
      }
    },
    async reportUsage(reports, correlationId) {
      try {
        const answer = await callJson({
          method: 'POST',
          url: `${config.SESSION_URL}/api/v1/usage`,
          headers,
          body: { reports },
          correlationId,
          timeoutMs: config.SESSION_TIMEOUT_MS,
        });
        const body = answer.body as Partial<UsageReported> | undefined;
        if (answer.status !== 200 || !Array.isArray(body?.exhausted)) return undefined;
        return body as UsageReported;
      } catch (error) {
        if (error instanceof OutboundError) return undefined;
        throw error;
      }
    },
    async changes(after, correlationId, waitSeconds = 0, signal) {
      const answer = await get(
        `/api/v1/sessions/changes?after=${encodeURIComponent(after)}&limit=200&waitSeconds=${waitSeconds}`,
        correlationId,
        waitSeconds * 1000,
        signal,
      );
      if (answer?.status !== 200) return undefined;
      return answer.body as { changes: { sessionId: string; state: string; fromState?: string | null }[]; next: string };
    },
  };
}
