import type { z } from 'zod';
import type { CredentialRequest, OpenndsAuthorisationRequest } from '../../contract/index.js';
import { callJson, OutboundError, type OutboundFailure } from '../kit/index.js';
import type { AllowanceLeftRequest, GrantRequest } from '../../contract/session.js';
import type { PortalConfig } from './config.js';

/** A peer's answer: its status and JSON body, or no answer at all (and why, when known). */
export type PeerAnswer = { kind: 'answer'; status: number; body: Record<string, unknown> } | { kind: 'unreachable'; failure?: OutboundFailure };

// Spec 8: portal -> entitlement 5000 ms, portal -> session create / grant 5000 ms each, one attempt.
export const UPSTREAM_TIMEOUT_MS = 5000;

async function ask(call: Parameters<typeof callJson>[0]): Promise<PeerAnswer> {
  try {
    const reply = await callJson(call);
    const body = typeof reply.body === 'object' && reply.body !== null ? (reply.body as Record<string, unknown>) : {};
    return { kind: 'answer', status: reply.status, body };
  } catch (error) {
    if (error instanceof OutboundError) return { kind: 'unreachable', failure: error.failure };
    throw error;
  }
}

/**
 * A peer's answer with one of the expected statuses, its body parsed by the contract's schema
 * (contract/); undefined for any other answer, no answer, or a body that does not parse, which
 * the caller turns into the spec's upstream error (fail closed).
 */
export function replyOf<S extends z.ZodType>(schema: S, answer: PeerAnswer, statuses: readonly number[]): z.output<S> | undefined {
  if (answer.kind !== 'answer' || !statuses.includes(answer.status)) return undefined;
  const parsed = schema.safeParse(answer.body);
  return parsed.success ? parsed.data : undefined;
}

export interface Upstreams {
  evaluate(accessToken: string, subjectId: string, idempotencyKey: string, correlationId: string): Promise<PeerAnswer>;
  createSession(subjectId: string, deviceRef: string, idempotencyKey: string, correlationId: string): Promise<PeerAnswer>;
  grantSession(sessionId: string, grant: GrantRequest, correlationId: string): Promise<PeerAnswer>;
  revokeSession(sessionId: string, correlationId: string): Promise<PeerAnswer>;
  readSession(sessionId: string, correlationId: string): Promise<PeerAnswer>;
  /** What a person has left of an entitlement's allowance, asked before any session is created. */
  allowanceLeft(subjectId: string, request: AllowanceLeftRequest, correlationId: string): Promise<PeerAnswer>;
  /** A one-time gateway credential for a GRANTED session and its device. */
  issueCredential(request: CredentialRequest, correlationId: string): Promise<PeerAnswer>;
  /** Queues an openNDS client for its gateway's authmon poll, with the session's limits. */
  authoriseOpennds(request: OpenndsAuthorisationRequest, correlationId: string): Promise<PeerAnswer>;
  /** Relays one authmon (or BinAuth, revocation-poll) request of an openNDS gateway; the answer's `text` goes back as is. */
  relayAuthmon(
    nasId: string,
    request: { auth_get: string; gatewayhash: string; payload: string; callerAddress: string; ts?: string; nonce?: string; sig?: string },
    correlationId: string,
  ): Promise<PeerAnswer>;
  /** Whether an openNDS gateway polls the platform (contract OpenndsGatewayStatus). */
  openndsGateway(nasId: string, correlationId: string): Promise<PeerAnswer>;
  /** Whether the gateway confirmed the session (accounting Start), and its usage. */
  readConnection(sessionId: string, correlationId: string): Promise<PeerAnswer>;
  /** A person's copy of their data: every network session of the subject, with its state changes. */
  subjectSessions(subjectId: string, correlationId: string): Promise<PeerAnswer>;
  /** A person's copy of their data: every connection of one network session at the gateways. */
  connectionHistory(sessionId: string, correlationId: string): Promise<PeerAnswer>;
  /** A person's copy of their data: every entitlement the entitlement service holds of the subject, oldest first. */
  subjectEntitlements(subjectId: string, correlationId: string): Promise<PeerAnswer>;
  /** Erasure: the person's traces at the gateways, by their network sessions. */
  eraseConnections(sessionIds: readonly string[], correlationId: string): Promise<PeerAnswer>;
  /** Erasure: the person's network sessions revoked and anonymised, their allowance counters deleted. */
  eraseSessions(subjectId: string, correlationId: string): Promise<PeerAnswer>;
  /** Erasure: the person's entitlements and their requests deleted. */
  eraseEntitlements(subjectId: string, correlationId: string): Promise<PeerAnswer>;
}

export function createUpstreams(config: PortalConfig): Upstreams {
  const sessionKey = { 'X-API-Key': config.PORTAL_SESSION_KEY };
  const gatewayKey = { 'X-API-Key': config.GATEWAY_API_KEY };
  const entitlementKey = { 'X-API-Key': config.PORTAL_ENTITLEMENT_KEY };
  const sessions = `${config.SESSION_URL}/api/v1/sessions`;
  const entitlementSubject = (subjectId: string) => `${config.ENTITLEMENT_URL}/api/v1/subjects/${encodeURIComponent(subjectId)}`;
  return {
    evaluate: (accessToken, subjectId, idempotencyKey, correlationId) =>
      ask({
        url: `${config.ENTITLEMENT_URL}/api/v1/entitlements/evaluate`,
        body: { subjectId, sessionId: null },
        headers: { Authorization: `Bearer ${accessToken}`, 'Idempotency-Key': idempotencyKey },
        correlationId,
        timeoutMs: UPSTREAM_TIMEOUT_MS,
      }),
    createSession: (subjectId, deviceRef, idempotencyKey, correlationId) =>
      ask({
        url: sessions,
        body: { subjectId, deviceRef },
        headers: { ...sessionKey, 'Idempotency-Key': idempotencyKey },
        correlationId,
        timeoutMs: UPSTREAM_TIMEOUT_MS,
      }),
    grantSession: (sessionId, grant, correlationId) =>
      ask({ url: `${sessions}/${sessionId}/grant`, body: grant, headers: sessionKey, correlationId, timeoutMs: UPSTREAM_TIMEOUT_MS }),
    revokeSession: (sessionId, correlationId) =>
      ask({ url: `${sessions}/${sessionId}/revoke`, method: 'POST', body: {}, headers: sessionKey, correlationId, timeoutMs: UPSTREAM_TIMEOUT_MS }),
    allowanceLeft: (subjectId, request, correlationId) =>
      ask({
        url: `${config.SESSION_URL}/api/v1/subjects/${encodeURIComponent(subjectId)}/allowance-left`,
        body: request,
        headers: sessionKey,
        correlationId,
        timeoutMs: UPSTREAM_TIMEOUT_MS,
      }),
    readSession: (sessionId, correlationId) => ask({ url: `${sessions}/${sessionId}`, headers: sessionKey, correlationId, timeoutMs: UPSTREAM_TIMEOUT_MS }),
    issueCredential: (request, correlationId) =>
      ask({ url: `${config.GATEWAY_URL}/api/v1/credentials`, body: request, headers: gatewayKey, correlationId, timeoutMs: UPSTREAM_TIMEOUT_MS }),
    authoriseOpennds: (request, correlationId) =>
      ask({ url: `${config.GATEWAY_URL}/api/v1/opennds/authorisations`, body: request, headers: gatewayKey, correlationId, timeoutMs: UPSTREAM_TIMEOUT_MS }),
    relayAuthmon: (nasId, request, correlationId) =>
      ask({
        url: `${config.GATEWAY_URL}/api/v1/opennds/authmon/${encodeURIComponent(nasId)}`,
        body: request,
        headers: gatewayKey,
        correlationId,
        timeoutMs: UPSTREAM_TIMEOUT_MS,
      }),
    openndsGateway: (nasId, correlationId) =>
      ask({
        url: `${config.GATEWAY_URL}/api/v1/opennds/gateways/${encodeURIComponent(nasId)}`,
        headers: gatewayKey,
        correlationId,
        timeoutMs: UPSTREAM_TIMEOUT_MS,
      }),
    readConnection: (sessionId, correlationId) =>
      ask({ url: `${config.GATEWAY_URL}/api/v1/connections/${sessionId}`, headers: gatewayKey, correlationId, timeoutMs: UPSTREAM_TIMEOUT_MS }),
    subjectSessions: (subjectId, correlationId) =>
      ask({
        url: `${config.SESSION_URL}/api/v1/subjects/${encodeURIComponent(subjectId)}/sessions`,
        headers: sessionKey,
        correlationId,
        timeoutMs: UPSTREAM_TIMEOUT_MS,
      }),
    connectionHistory: (sessionId, correlationId) =>
      ask({
        url: `${config.GATEWAY_URL}/api/v1/connections/${encodeURIComponent(sessionId)}/history`,
        headers: gatewayKey,
        correlationId,
        timeoutMs: UPSTREAM_TIMEOUT_MS,
      }),
    subjectEntitlements: (subjectId, correlationId) =>
      ask({ url: `${entitlementSubject(subjectId)}/entitlements`, headers: entitlementKey, correlationId, timeoutMs: UPSTREAM_TIMEOUT_MS }),
    eraseConnections: (sessionIds, correlationId) =>
      ask({ url: `${config.GATEWAY_URL}/api/v1/connections/erase`, body: { sessionIds }, headers: gatewayKey, correlationId, timeoutMs: UPSTREAM_TIMEOUT_MS }),
    eraseSessions: (subjectId, correlationId) =>
      ask({
        url: `${config.SESSION_URL}/api/v1/subjects/${encodeURIComponent(subjectId)}/erase`,
        method: 'POST',
        body: {},
        headers: sessionKey,
        correlationId,
        timeoutMs: UPSTREAM_TIMEOUT_MS,
      }),
    eraseEntitlements: (subjectId, correlationId) =>
      ask({ url: `${entitlementSubject(subjectId)}/erase`, method: 'POST', body: {}, headers: entitlementKey, correlationId, timeoutMs: UPSTREAM_TIMEOUT_MS }),
  };
}
