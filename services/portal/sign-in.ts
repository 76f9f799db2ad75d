import { randomUUID } from 'node:crypto';
import { Entitlement } from '../../contract/entitlement.js';
import { IssuedCredentialReply, OpenndsAuthorisationReply } from '../../contract/gateway.js';
import { Session } from '../../contract/session.js';
import { ApiError, type Logger } from '../kit/index.js';
import type { ClaimsReader } from './claims.js';
import type { GrantOutcome, IdpClient, PortalClient, Tokens } from './idp-client.js';
import { gatewayLogin, type GatewayContext, type GatewayLogin } from './gateway-context.js';
import type { PortalSessionData } from './portal-session-store.js';
import { replyOf, type Upstreams } from './upstreams.js';

export interface SignInDeps {
  idp: IdpClient;
  upstreams: Upstreams;
  readClaims: ClaimsReader;
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

const upstreamFailure = (what: string) => new ApiError('UPSTREAM_UNAVAILABLE', { message: `The ${what} is unavailable; no access was granted.` });

/**
 * Spec 4.1 rule 1 after the credential check: entitlement, then a network session created and
 * granted. Fail closed (spec 8): on any failure nothing stays granted, the network session is
 * revoked, the identity-provider session logged out, and no portal session is kept.
 */
export async function completeSignIn(
  deps: SignInDeps,
  client: PortalClient,
  tokens: Tokens,
  device: SigningDevice,
  correlationId: string,
): Promise<SignedIn> {
  const { idp, upstreams, log } = deps;
  let sessionId: string | undefined;
  const undo = async () => {
    if (sessionId !== undefined) {
      const revoked = await upstreams.revokeSession(sessionId, correlationId);
      if (revoked.kind !== 'answer' || revoked.status !== 200) log.error({ sessionId }, 'sign-in rollback could not revoke the network session');
    }
    if (tokens.refreshToken !== null) await idp.logout(client, tokens.refreshToken, correlationId);
  };
  try {
    let claims: Record<string, unknown>;
    try {
      claims = await deps.readClaims(tokens.accessToken);
    } catch {
      throw upstreamFailure('identity provider');
    }
    const subjectId = String(claims['sub']);
    // One Idempotency-Key per sign-in, never derived from the caller's correlation id: a client
    // that sends the same X-Correlation-ID twice must get a second sign-in, not a replay of the
    // first (whose session may be revoked by now).
    const idempotencyKey = `portal-${randomUUID()}`;

    const evaluated = await upstreams.evaluate(tokens.accessToken, subjectId, idempotencyKey, correlationId);
    if (evaluated.kind === 'unreachable') throw upstreamFailure('entitlement service');
    if (evaluated.status === 403 && evaluated.body['code'] === 'ENTITLEMENT_DENIED') {
      const reason = evaluated.body['reason'];
      log.info({ reason }, 'sign-in denied by the entitlement');
      throw new ApiError('ENTITLEMENT_DENIED', { eligible: false, ...(typeof reason === 'string' ? { reason: reason as never } : {}) });
    }
    const entitlement = replyOf(Entitlement, evaluated, [200, 201]);
    if (entitlement === undefined) {
      log.warn({ status: evaluated.status, code: evaluated.body['code'] }, 'entitlement answered an error or an entitlement that does not parse');
      throw upstreamFailure('entitlement service');
    }
    const { permission } = entitlement;

    const created = replyOf(Session, await upstreams.createSession(subjectId, device.deviceRef, idempotencyKey, correlationId), [200, 201]);
    if (created === undefined) throw upstreamFailure('session service');
    sessionId = created.sessionId;

    const granted = replyOf(
      Session,
      await upstreams.grantSession(
        sessionId,
        {
          entitlementId: entitlement.entitlementId,
          entitlementType: entitlement.entitlementType,
          tier: permission.tier,
          qosClass: permission.qosClass,
          validUntil: entitlement.validUntil,
          deviceSlots: permission.deviceSlots,
        },
        correlationId,
      ),
      [200],
    );
    if (granted?.state !== 'GRANTED') throw upstreamFailure('session service');
    // Issue 17: behind a gateway the device still has to log in there, with a one-time
    // credential; without one the sign-in cannot open the network, so it fails closed.
    let login: GatewayLogin | null = null;
    if (device.gateway !== null && device.gateway.profile === 'opennds') {
      // Issue 28: openNDS is told by its authmon poll, not by the browser: the client is queued at
      // the gateway service with the session's limits; no answer is no access (fail closed).
      const { nasId, hid } = device.gateway;
      if (hid === undefined || hid === null) throw upstreamFailure('gateway service');
      const queued = replyOf(OpenndsAuthorisationReply, await upstreams.authoriseOpennds({ sessionId, deviceRef: device.deviceRef, nasId, hid }, correlationId), [201]);
      if (queued === undefined) throw upstreamFailure('gateway service');
    } else if (device.gateway !== null) {
      const { nasId, challenge, chapId } = device.gateway;
      const issued = await upstreams.issueCredential({ sessionId, deviceRef: device.deviceRef, nasId, ...(challenge === null ? {} : { challenge }), ...(chapId === null ? {} : { chapId }) }, correlationId);
      // A reply that does not parse is no credential: fail closed, as an unreachable gateway service.
      const credential = replyOf(IssuedCredentialReply, issued, [201]);
      if (credential === undefined) throw upstreamFailure('gateway service');
      login = gatewayLogin(device.gateway, credential);
    }
    log.info({ sessionId, entitlementId: entitlement.entitlementId, client, nasId: device.gateway?.nasId }, 'signed in');
    return {
      data: {
        subjectId,
        client,
        accessToken: tokens.accessToken,
        refreshToken: tokens.refreshToken,
        claims,
        entitlement,
        networkSessionId: sessionId,
        networkSession: granted,
        gateway: device.gateway,
      },
      session: granted,
      gatewayLogin: login,
    };
  } catch (error) {
    await undo();
    throw error;
  }
}

/** The credential step's outcome as tokens, or the portal's answer for a refusal or an outage. */
export function tokensOf(outcome: GrantOutcome, refusal: (error: string, status: number) => ApiError): Tokens {
  if (outcome.kind === 'tokens') return outcome.tokens;
  if (outcome.kind === 'unreachable') throw upstreamFailure('identity provider');
  throw refusal(outcome.error, outcome.status);
}
