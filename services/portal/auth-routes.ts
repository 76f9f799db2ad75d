import type { Request, Response } from 'express';
import { ApiError, route, type Logger, type Route } from '../kit/index.js';
import type { AccountAdmin } from './account-admin.js';
import type { PortalConfig } from './config.js';
import { deviceOf, readGatewayCookie, readSid, SID_LIFETIME_MS, sidCookie } from './cookies.js';
import { connectionOf } from './connection.js';
import { parseGatewayContext, type GatewayLogin } from './gateway-context.js';
import type { GatewayContextStore } from './gateway-context-store.js';
import { crossSiteGuard } from './cross-site.js';
import { CUSTOMER_CLIENT, EMPLOYEE_CLIENT, type IdpClient, type PortalClient } from './idp-client.js';
import type { PortalSessionData, PortalSessionStore } from './portal-session-store.js';
import { customerRefusal, employeeRefusal } from './refusals.js';
import { EmployeeVerifyRequest, LoginRequest, LogoutReply, MetaReply, PortalSession, RegisterRequest, Unauthenticated } from './schemas.js';
import { completeSignIn, tokensOf, type SignInDeps, type SigningDevice } from './sign-in.js';
import { newSid } from './token-crypto.js';
import type { Upstreams } from './upstreams.js';

export interface AuthDeps extends Omit<SignInDeps, 'log'> {
  config: PortalConfig;
  idp: IdpClient;
  upstreams: Upstreams;
  accounts: AccountAdmin;
  store: PortalSessionStore;
  gatewayContexts: GatewayContextStore;
  now: () => Date;
  logger: Logger;
}

const signInErrors = {
  400: { description: 'INVALID_REQUEST' },
  401: { description: 'INVALID_CREDENTIALS (identical for every credential failure)' },
  403: { description: 'FORBIDDEN (cross-site request) or ENTITLEMENT_DENIED with reason' },
  502: { description: 'UPSTREAM_UNAVAILABLE: identity provider, entitlement or session unavailable; nothing granted' },
};

export function authRoutes(deps: AuthDeps): Route[] {
  const { config, store, now } = deps;
  const cookie = sidCookie(config.PORTAL_PUBLIC_URL);
  const { sameOrigin, sameOriginJson, problem: crossSiteProblem } = crossSiteGuard(config.PORTAL_PUBLIC_URL);

  const answer = (data: PortalSessionData, session: Record<string, unknown>, correlationId: string, gateway: Record<string, unknown> = {}) => ({
    status: 200,
    body: {
      authenticated: true,
      correlationId,
      client: data.client,
      claims: data.claims,
      entitlement: data.entitlement,
      session,
      ...(config.EXPOSE_TOKEN ? { rawAccessToken: data.accessToken } : {}),
      ...gateway,
    },
  });

  /** The device signing in: the gateway context's deviceRef when a gateway sent it, else this browser's handle. */
  const signingDevice = async (req: Request): Promise<SigningDevice & { handle: string }> => {
    const browser = deviceOf(req);
    const id = readGatewayCookie(req);
    const context = id === undefined ? undefined : await deps.gatewayContexts.get(id);
    if (context === undefined) return { deviceRef: browser.deviceRef, gateway: null, handle: browser.handle };
    return { deviceRef: context.deviceRef, gateway: context, handle: browser.handle };
  };

  /** Issue 17: a sign-in through a gateway answers the page how to log the device in there; it is connecting until the gateway confirms. */
  const gatewayFields = (login: GatewayLogin | null) =>
    login === null ? {} : { gateway: login, connection: { state: 'CONNECTING', connected: false, inputOctets: 0, outputOctets: 0, sessionTime: 0 } };

  /**
   * Spec 4.1 rule 5, in its order: the network session revoked, then the identity provider's
   * session logged out. False when a step could not be done.
   */
  const endSignIn = async (stored: PortalSessionData, correlationId: string): Promise<boolean> => {
    const revoked = await deps.upstreams.revokeSession(stored.networkSessionId, correlationId);
    let ok = revoked.kind === 'answer' && revoked.status === 200;
    if (stored.refreshToken !== null) ok = (await deps.idp.logout(stored.client as PortalClient, stored.refreshToken, correlationId)) && ok;
    return ok;
  };

  /**
   * Keeps a signed-in outcome behind a fresh cookie (a new `sid` on every sign-in: no fixation).
   * A new sign-in in the same browser ends the one it replaces as a logout would (network session,
   * identity-provider session), once the new one has succeeded; a refresh continues its own.
   */
  const open = async (req: Request, res: Response, data: PortalSessionData, session: Record<string, unknown>, correlationId: string, device: string, replaces: 'another' | 'itself' = 'another', gateway: Record<string, unknown> = {}) => {
    const previous = readSid(req);
    if (previous !== undefined) {
      const stored = replaces === 'another' ? await store.get(previous) : undefined;
      if (stored !== undefined && !(await endSignIn(stored, correlationId))) res.locals.log.warn({ sessionId: stored.networkSessionId }, 'the replaced sign-in could not be ended completely');
      await store.drop(previous);
    }
    const sid = newSid();
    await store.put(sid, data, new Date(now().getTime() + SID_LIFETIME_MS));
    cookie.set(req, res, sid, device);
    return answer(data, session, correlationId, gateway);
  };

  /** Spec 4.1 rule 4: every refused sign-in takes at least the floor, so timing tells nothing. */
  const atLeastFloor = async <T>(started: number, work: Promise<T>): Promise<T> => {
    try {
      return await work;
    } catch (error) {
      if (error instanceof ApiError && error.code === 'INVALID_CREDENTIALS') {
        const wait = config.LOGIN_FAILURE_FLOOR_MS - (Date.now() - started);
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      }
      throw error;
    }
  };

  const customerSignIn = async (req: Request, res: Response, username: string, password: string, correlationId: string) => {
    const log = res.locals.log;
    const outcome = await deps.idp.passwordGrant(username, password, correlationId);
    if (outcome.kind === 'refused') log.info({ idpError: outcome.error, idpStatus: outcome.status, idpErrorDescription: outcome.description }, 'customer sign-in refused');
    const tokens = tokensOf(outcome, customerRefusal);
    const device = await signingDevice(req);
    const signedIn = await completeSignIn({ ...deps, log }, CUSTOMER_CLIENT, tokens, device, correlationId);
    return open(req, res, signedIn.data, signedIn.session, correlationId, device.handle, 'another', gatewayFields(signedIn.gatewayLogin));
  };

  /**
   * The live portal session behind the cookie, with its network session re-read (spec 3.1).
   * A session the session service does not know ended the sign-in; one it cannot answer for is
   * the last one read, with a GRANTED one past its expiry read as EXPIRED (spec 4.4 rule 5).
   */
  const current = async (req: Request, correlationId: string) => {
    const sid = readSid(req);
    const stored = sid === undefined ? undefined : await store.get(sid);
    if (sid === undefined || stored === undefined) return undefined;
    const read = await deps.upstreams.readSession(stored.networkSessionId, correlationId);
    if (read.kind === 'answer' && read.status === 200) {
      if (JSON.stringify(read.body) !== JSON.stringify(stored.networkSession)) await store.noteNetworkSession(sid, read.body);
      return { sid, stored, session: read.body };
    }
    if (read.kind === 'answer' && read.status === 404) {
      await store.drop(sid);
      return undefined;
    }
    const last = stored.networkSession;
    if (last === null) return undefined;
    const due = last['state'] === 'GRANTED' && Date.parse(String(last['expiresAt'])) <= now().getTime();
    return { sid, stored, session: due ? { ...last, state: 'EXPIRED' } : last };
  };

  return [
    route({
      method: 'post',
      path: '/api/v1/auth/login',
      summary: 'Customer sign-in: password grant, entitlement, network session granted, one answer.',
      body: LoginRequest,
      steps: [sameOriginJson],
      responses: { 200: { description: 'Signed in; sets cookie sid.', schema: PortalSession }, ...signInErrors },
      handle: ({ body, req, res, correlationId }) => atLeastFloor(Date.now(), customerSignIn(req, res, body.username, body.password, correlationId)),
    }),
    route({
      method: 'post',
      path: '/api/v1/auth/register',
      summary: 'Creates a customer account through the identity provider, then signs in.',
      body: RegisterRequest,
      steps: [sameOriginJson],
      responses: {
        200: { description: 'Registered and signed in; sets cookie sid.', schema: PortalSession },
        400: { description: 'INVALID_REQUEST (email, password under 8 characters, or refused by the password policy)' },
        403: signInErrors[403],
        409: { description: 'ACCOUNT_EXISTS' },
        502: signInErrors[502],
      },
      handle: async ({ body, req, res, correlationId }) => {
        const created = await deps.accounts.createAccount(body.email, body.password, body.displayName);
        if (created === 'exists') throw new ApiError('ACCOUNT_EXISTS');
        if (created === 'rejected') throw new ApiError('INVALID_REQUEST', { message: 'The identity provider refused this email or password.' });
        if (created === 'unreachable') throw new ApiError('UPSTREAM_UNAVAILABLE', { message: 'The identity provider is unavailable; no account was created.' });
        return customerSignIn(req, res, body.email, body.password, correlationId);
      },
    }),
    route({
      method: 'post',
      path: '/api/v1/auth/employee',
      summary: 'Employee sign-in with employee id and citizen number, verified live against HR by the identity provider.',
      body: EmployeeVerifyRequest,
      steps: [sameOriginJson],
      responses: {
        200: { description: 'Signed in; sets cookie sid.', schema: PortalSession },
        ...signInErrors,
        403: { description: 'EMPLOYEE_INACTIVE, FORBIDDEN, or ENTITLEMENT_DENIED with reason' },
        429: { description: 'RATE_LIMITED: too many failed submits for this employee id' },
        502: { description: 'UPSTREAM_UNAVAILABLE (identity provider, HR, entitlement or session); nothing granted' },
        504: { description: 'HR_SERVICE_TIMEOUT; access is never granted on timeout' },
      },
      handle: async ({ body, req, res, correlationId }) =>
        atLeastFloor(
          Date.now(),
          (async () => {
            const log = res.locals.log;
            const outcome = await deps.idp.employeeGrant(body.employeeId, body.citizenId, correlationId);
            if (outcome.kind === 'refused') log.info({ idpError: outcome.error, idpStatus: outcome.status, idpErrorDescription: outcome.description }, 'employee sign-in refused');
            const tokens = tokensOf(outcome, employeeRefusal);
            const device = await signingDevice(req);
            const signedIn = await completeSignIn({ ...deps, log }, EMPLOYEE_CLIENT, tokens, device, correlationId);
            return open(req, res, signedIn.data, signedIn.session, correlationId, device.handle, 'another', gatewayFields(signedIn.gatewayLogin));
          })(),
        ),
    }),
    route({
      method: 'get',
      path: '/api/v1/auth/session',
      summary: 'The signed-in state, with the network session re-read; always 200.',
      responses: { 200: { description: 'PortalSession, or {authenticated:false}.', schema: PortalSession.or(Unauthenticated) } },
      handle: async ({ req, correlationId }) => {
        const found = await current(req, correlationId);
        if (found === undefined) return { status: 200, body: { authenticated: false, correlationId } };
        const connection = await connectionOf(deps.upstreams, found.stored, correlationId);
        return answer(found.stored, found.session, correlationId, connection === undefined ? {} : { connection });
      },
    }),
    route({
      method: 'post',
      path: '/api/v1/auth/refresh',
      summary: 'Refreshes the tokens with the refresh token, re-reads the network session and renews the cookie.',
      steps: [sameOrigin],
      responses: { 200: { description: 'Refreshed; sets a new cookie sid.', schema: PortalSession }, 401: { description: 'UNAUTHORIZED' }, 403: { description: 'FORBIDDEN (cross-site request)' } },
      handle: async ({ req, res, correlationId }) => {
        const found = await current(req, correlationId);
        if (found === undefined || found.stored.refreshToken === null) throw new ApiError('UNAUTHORIZED', { message: 'No portal session to refresh.' });
        const client = found.stored.client as PortalClient;
        const outcome = await deps.idp.refresh(client, found.stored.refreshToken, correlationId);
        if (outcome.kind !== 'tokens') {
          if (outcome.kind === 'refused') {
            // The identity provider ended this sign-in (logout, disabled account): so does the network.
            await deps.upstreams.revokeSession(found.stored.networkSessionId, correlationId);
            await store.drop(found.sid);
            cookie.clear(req, res);
          }
          throw new ApiError('UNAUTHORIZED', { message: 'The sign-in could not be refreshed.' });
        }
        const data = { ...found.stored, accessToken: outcome.tokens.accessToken, refreshToken: outcome.tokens.refreshToken ?? found.stored.refreshToken, networkSession: found.session };
        return open(req, res, data, found.session, correlationId, deviceOf(req).handle, 'itself');
      },
    }),
    route({
      method: 'post',
      path: '/api/v1/auth/logout',
      summary: 'Revokes the network session, logs out at the identity provider, drops the portal session; always 200.',
      responses: { 200: { description: '{ok, correlationId}; ok is false when a step could not be done.', schema: LogoutReply } },
      handle: async ({ req, res, correlationId }) => {
        // Always 200 (spec 4.1 rule 5): a cross-site attempt changes nothing and answers ok:false.
        if (crossSiteProblem(req, false) !== undefined) return { status: 200, body: { ok: false, correlationId } };
        const sid = readSid(req);
        const stored = sid === undefined ? undefined : await store.get(sid);
        let ok = false;
        if (stored !== undefined && sid !== undefined) {
          ok = await endSignIn(stored, correlationId);
          await store.drop(sid);
        }
        cookie.clear(req, res);
        return { status: 200, body: { ok, correlationId } };
      },
    }),
    route({
      method: 'get',
      path: '/gateway',
      summary: 'Issue 17: where a gateway sends a captive device (UAM/WISPr or Cisco web-auth parameters); keeps the context for the sign-in and shows the sign-in page.',
      responses: {
        303: { description: 'Context kept behind cookie gw (or none given); to the sign-in page, without the parameters.' },
        400: { description: 'INVALID_REQUEST: a gateway parameter is malformed (named, never echoed).' },
      },
      handle: async ({ req, res }) => {
        const parsed = parseGatewayContext(req.query as Record<string, unknown>, config.GATEWAY_DEFAULT_NAS_ID);
        if (parsed.kind === 'invalid') throw new ApiError('INVALID_REQUEST', { message: `Gateway parameters: ${parsed.problems.map((problem) => problem.split(':')[0]).join(', ')} malformed.` });
        if (parsed.kind === 'context') {
          const ttl = config.GATEWAY_CONTEXT_TTL_SECONDS * 1000;
          cookie.gateway(req, res, await deps.gatewayContexts.put(parsed.context), ttl);
        }
        res.setHeader('Location', '/');
        return { status: 303, body: undefined };
      },
    }),
    route({
      method: 'get',
      path: '/api/v1/meta',
      summary: 'What the UI needs to know about this portal.',
      responses: { 200: { description: 'Meta.', schema: MetaReply } },
      handle: () => ({
        status: 200,
        body: { flight: config.PORTAL_FLIGHT, idp: `${config.IDP_PUBLIC_URL ?? config.IDP_URL}/realms/${config.IDP_REALM}`, mode: 'api', exposeToken: config.EXPOSE_TOKEN },
      }),
    }),
  ];
}
