import { randomUUID } from 'node:crypto';
import { Entitlement } from '../../contract/entitlement.js';
import { IssuedCredentialReply, OpenndsAuthorisationReply } from '../../contract/gateway.js';
import { AllowanceLeft, Session } from '../../contract/session.js';
import { ApiError, type Logger } from '../kit/index.js';
import { grantOf } from '../../edge/index.js';
import type { ClaimsReader } from './claims.js';
import type { GrantOutcome, IdpClient, PortalClient, Tokens } from './idp-client.js';
import { gatewayLogin, type GatewayContext, type GatewayLogin } from './gateway-context.js';
import type { GatewayContextStore } from './gateway-context-store.js';
import type { PortalSessionData } from './portal-session-store.js';
import type { SignInDays } from './sign-in-days.js';
import { termsStep, type TermsAcceptances, type TermsClaim, type TermsSource } from './terms.js';
import { replyOf, type PeerAnswer, type Upstreams } from './upstreams.js';

export interface SignInDeps {
  idp: IdpClient;
  upstreams: Upstreams;
  readClaims: ClaimsReader;
  /** The terms in force (svc-admin) and who accepted which version (the portal's database). */
  terms: TermsSource;
  acceptances: TermsAcceptances;
  /** The day each account last signed in, which its newest acceptance is kept counted from. */
  signInDays: SignInDays;
  /** Where a grant queued with an openNDS hid spends it (gateway-context-store.ts). */
  gatewayContexts: Pick<GatewayContextStore, 'spendHid'>;
  log: Logger;
}

export interface SignedIn {
  data: PortalSessionData;
  session: Session;
  /** How the page logs the device in at its gateway, when the sign-in came through one. */
  gatewayLogin: GatewayLogin | null;
}

/** Who is signing in: the deviceRef, and the gateway context when a gateway sent the device. */
export interface SigningDevice {
  deviceRef: string;
  gateway: GatewayContext | null;
}

type Hop = 'identity provider' | 'entitlement service' | 'session service' | 'gateway service';
const upstreamFailure = (what: Hop) => new ApiError('UPSTREAM_UNAVAILABLE', { message: `The ${what} is unavailable; no access was granted.` });

/**
 * Why a hop gave the sign-in nothing usable, for its log line: no answer (the outbound client's
 * `timeout`, `unreachable` or `bad-response`), or an answer that is not the expected one (its
 * status, and its error code when it is one of the spec's, never free text).
 */
export type HopFailure = { failure: string; status?: number; code?: string };
const specCode = (value: unknown) => (typeof value === 'string' && /^[A-Z][A-Z_]{0,39}$/.test(value) ? value : undefined);
export function hopFailureOf(answer: PeerAnswer): HopFailure {
  if (answer.kind === 'unreachable') return { failure: answer.failure ?? 'unreachable' };
  const code = specCode(answer.body['code']);
  return { failure: 'unexpected-answer', status: answer.status, ...(code === undefined ? {} : { code }) };
}

/**
 * A sign-in an upstream failed: the spec's 502 (fail closed), and one warn line naming the hop and
 * how it failed, so every 502 can be traced to its cause from the portal's log alone (the
 * correlation id is on the line); no person, token or address is on it.
 */
function failedAt(log: Logger, hop: Hop, why: HopFailure): ApiError {
  log.warn({ upstream: hop, ...why }, 'sign-in failed at an upstream; no access was granted');
  return upstreamFailure(hop);
}

/** Who signed in, from the verified access token. */
interface Identity {
  subjectId: string;
  claims: Record<string, unknown>;
  /**
   * One Idempotency-Key per sign-in, never derived from the caller's correlation id: a client that
   * sends the same X-Correlation-ID twice must get a second sign-in, not a replay of the first
   * (whose session may be revoked by now).
   */
  idempotencyKey: string;
}

/** Step "identity": the access token verified and read (never logged: jose's error code only). */
async function identityOf(deps: SignInDeps, tokens: Tokens): Promise<Identity> {
  let claims: Record<string, unknown>;
  try {
    claims = await deps.readClaims(tokens.accessToken);
  } catch (error) {
    // jose's error code (ERR_JWKS_TIMEOUT, ERR_JWT_EXPIRED, ...): never the token or its claims.
    const code =
      typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' && /^ERR_[A-Z_]{1,40}$/.test(error.code)
        ? error.code
        : undefined;
    throw failedAt(deps.log, 'identity provider', { failure: 'token-not-verified', ...(code === undefined ? {} : { code }) });
  }
  return { subjectId: String(claims['sub']), claims, idempotencyKey: `portal-${randomUUID()}` };
}

/** Step "entitlement": the decision for this person, or the refusal with its reason (spec 4.3). */
async function entitlementOf(deps: SignInDeps, tokens: Tokens, identity: Identity, correlationId: string): Promise<Entitlement> {
  const { upstreams, log } = deps;
  const evaluated = await upstreams.evaluate(tokens.accessToken, identity.subjectId, identity.idempotencyKey, correlationId);
  if (evaluated.kind === 'unreachable') throw failedAt(log, 'entitlement service', hopFailureOf(evaluated));
  if (evaluated.status === 403 && evaluated.body['code'] === 'ENTITLEMENT_DENIED') {
    const reason = evaluated.body['reason'];
    log.info({ reason }, 'sign-in denied by the entitlement');
    throw new ApiError('ENTITLEMENT_DENIED', { eligible: false, ...(typeof reason === 'string' ? { reason: reason as never } : {}) });
  }
  const entitlement = replyOf(Entitlement, evaluated, [200, 201]);
  if (entitlement === undefined) throw failedAt(log, 'entitlement service', hopFailureOf(evaluated));
  return entitlement;
}

/**
 * Step "allowance": a person with no time or data left of the period is refused before any
 * session is made or any device handed to a controller, with the renewal named (403
 * ALLOWANCE_USED_UP), never a grant the controller would then refuse silently. An entitlement
 * without an allowance asks nothing; no answer is no access (fail closed).
 */
async function allowanceStep(deps: SignInDeps, identity: Identity, entitlement: Entitlement, correlationId: string): Promise<void> {
  const allowance = entitlement.permission.allowance ?? null;
  if (allowance === null) return;
  const asked = await deps.upstreams.allowanceLeft(identity.subjectId, { allowance }, correlationId);
  const left = replyOf(AllowanceLeft, asked, [200]);
  if (left === undefined) throw failedAt(deps.log, 'session service', hopFailureOf(asked));
  if (left.secondsRemaining !== 0 && left.bytesRemaining !== 0) return;
  deps.log.info({ renewsAt: left.renewsAt }, 'sign-in refused: the allowance for the period is used up');
  throw new ApiError('ALLOWANCE_USED_UP', { renewsAt: left.renewsAt });
}

/**
 * Step "session": a network session created for the device and granted with the entitlement's
 * limits. `held` learns the session id as soon as it exists, so a failure after it revokes it.
 */
async function grantedSession(
  deps: SignInDeps,
  identity: Identity,
  device: SigningDevice,
  entitlement: Entitlement,
  held: { sessionId?: string },
  correlationId: string,
): Promise<Session> {
  const { upstreams, log } = deps;
  const creation = await upstreams.createSession(identity.subjectId, device.deviceRef, identity.idempotencyKey, correlationId);
  const created = replyOf(Session, creation, [200, 201]);
  if (created === undefined) throw failedAt(log, 'session service', hopFailureOf(creation));
  held.sessionId = created.sessionId;
  const { permission } = entitlement;
  const grant = await upstreams.grantSession(
    created.sessionId,
    {
      entitlementId: entitlement.entitlementId,
      entitlementType: entitlement.entitlementType,
      tier: permission.tier,
      qosClass: permission.qosClass,
      validUntil: entitlement.validUntil,
      deviceSlots: permission.deviceSlots,
      allowance: permission.allowance ?? null,
    },
    correlationId,
  );
  const granted = replyOf(Session, grant, [200]);
  if (granted?.state !== 'GRANTED')
    throw failedAt(log, 'session service', granted === undefined ? hopFailureOf(grant) : { failure: 'not-granted', code: granted.state });
  return granted;
}

/**
 * Step "gateway hand-off": behind a gateway the device still has to be let through there, as its
 * profile declares; without the hand-off the sign-in cannot open the network, so it fails closed.
 * Answers how the page logs the device in (a one-time credential), or null when nothing is handed
 * to the browser (no gateway, or a controller that collects the grant itself).
 */
async function handOff(deps: SignInDeps, device: SigningDevice, sessionId: string, correlationId: string): Promise<GatewayLogin | null> {
  const { upstreams, log } = deps;
  if (device.gateway === null) return null;
  if (grantOf(device.gateway.profile) === 'queued') {
    // The controller collects the grant itself (openNDS's authmon poll), not from the browser:
    // the client is queued at the gateway service with the session's limits; no answer is no
    // access (fail closed).
    const { nasId, hid } = device.gateway;
    if (hid === undefined || hid === null) throw upstreamFailure('gateway service');
    const authorisation = await upstreams.authoriseOpennds({ sessionId, deviceRef: device.deviceRef, nasId, hid }, correlationId);
    if (replyOf(OpenndsAuthorisationReply, authorisation, [201]) === undefined) throw failedAt(log, 'gateway service', hopFailureOf(authorisation));
    // Queued, the hid is the grant's: openNDS changes the client's token once it authorises it.
    await deps.gatewayContexts.spendHid(hid);
    return null;
  }
  const { nasId, challenge, chapId } = device.gateway;
  const issued = await upstreams.issueCredential(
    { sessionId, deviceRef: device.deviceRef, nasId, ...(challenge === null ? {} : { challenge }), ...(chapId === null ? {} : { chapId }) },
    correlationId,
  );
  // A reply that does not parse is no credential: fail closed, as an unreachable gateway service.
  const credential = replyOf(IssuedCredentialReply, issued, [201]);
  if (credential === undefined) throw failedAt(log, 'gateway service', hopFailureOf(issued));
  return gatewayLogin(device.gateway, credential);
}

/**
 * Spec 4.1 rule 1 after the credential check, as named steps in order. The whole sign-in reads:
 * guard (same-origin JSON, per-address limits: route steps in sign-in-routes.ts) → device
 * (signingDevice there) → credential (the identity provider's grant) → identity → terms →
 * entitlement → allowance left → session → gateway hand-off → terms recorded (here) → portal session
 * (sessions.open there). Every way of signing in passes the terms step: its `claim` is required. Fail closed (spec 8):
 * on any failure nothing stays granted, the network session is revoked, the identity-provider
 * session logged out, and no portal session is kept.
 */
export async function completeSignIn(
  deps: SignInDeps,
  client: PortalClient,
  tokens: Tokens,
  device: SigningDevice,
  claim: TermsClaim,
  correlationId: string,
): Promise<SignedIn> {
  const held: { sessionId?: string } = {};
  try {
    const identity = await identityOf(deps, tokens);
    const due = await termsStep(deps.terms, deps.acceptances, identity.subjectId, claim, correlationId, deps.log);
    const entitlement = await entitlementOf(deps, tokens, identity, correlationId);
    await allowanceStep(deps, identity, entitlement, correlationId);
    const granted = await grantedSession(deps, identity, device, entitlement, held, correlationId);
    const login = await handOff(deps, device, granted.sessionId, correlationId);
    // Recorded only once everything else has succeeded: a refused sign-in leaves no acceptance behind.
    if (due !== null) await deps.acceptances.record(identity.subjectId, due.version, claim.channel);
    await deps.signInDays.record(identity.subjectId);
    deps.log.info({ sessionId: granted.sessionId, entitlementId: entitlement.entitlementId, client, nasId: device.gateway?.nasId }, 'signed in');
    const { subjectId, claims } = identity;
    const { accessToken, refreshToken } = tokens;
    return {
      data: {
        subjectId,
        client,
        accessToken,
        refreshToken,
        claims,
        entitlement,
        networkSessionId: granted.sessionId,
        networkSession: granted,
        gateway: device.gateway,
      },
      session: granted,
      gatewayLogin: login,
    };
  } catch (error) {
    await undo(deps, tokens, client, held.sessionId, correlationId);
    throw error;
  }
}

/** What a failed sign-in leaves behind is taken back: the network session revoked, the identity-provider session ended. */
async function undo(deps: SignInDeps, tokens: Tokens, client: PortalClient, sessionId: string | undefined, correlationId: string): Promise<void> {
  if (sessionId !== undefined) {
    const revoked = await deps.upstreams.revokeSession(sessionId, correlationId);
    if (revoked.kind !== 'answer' || revoked.status !== 200) deps.log.error({ sessionId }, 'sign-in rollback could not revoke the network session');
  }
  if (tokens.refreshToken !== null) await deps.idp.logout(client, tokens.refreshToken, correlationId);
}

/** The credential step's outcome as tokens, or the portal's answer for a refusal or an outage. */
export function tokensOf(outcome: GrantOutcome, refusal: (error: string, status: number) => ApiError, log: Logger): Tokens {
  if (outcome.kind === 'tokens') return outcome.tokens;
  if (outcome.kind === 'unreachable') {
    throw failedAt(
      log,
      'identity provider',
      outcome.status === undefined ? { failure: outcome.failure ?? 'unreachable' } : { failure: 'unexpected-answer', status: outcome.status },
    );
  }
  throw refusal(outcome.error, outcome.status);
}
