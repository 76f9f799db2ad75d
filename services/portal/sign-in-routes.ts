import type { Request, Response } from 'express';
import { Counter } from 'prom-client';
import type { z } from 'zod';
import { ApiError, createCeiling, metricsRegistry, route, type Route, type RouteSpec } from '../kit/index.js';
import { arrivalNeedsOutsideAddress, fromGatewayOutside, grantOf, type GatewayRegistry } from '../../edge/index.js';
import type { AccountAdmin } from './account-admin.js';
import type { PortalConfig } from './config.js';
import { deviceOf, readGatewayCookie, sidCookie } from './cookies.js';
import { crossSiteGuard } from './cross-site.js';
import type { GatewayLogin } from './gateway-context.js';
import type { GatewayContextStore } from './gateway-context-store.js';
import { CUSTOMER_CLIENT, EMPLOYEE_CLIENT, PHONE_CLIENT, VOUCHER_CLIENT, type GrantOutcome, type PortalClient } from './idp-client.js';
import type { PortalSessions } from './portal-session.js';
import { createRefusalPace, PACE_DEFAULTS } from './refusal-pace.js';
import { customerRefusal, employeeRefusal, phoneRefusal, voucherRefusal } from './refusals.js';
import {
  EmployeeVerifyRequest,
  LoginRequest,
  PhoneCodeRequest,
  PhoneCodeSent,
  PhoneSignInRequest,
  PortalSession,
  RegisterRequest,
  VoucherSignInRequest,
} from './schemas.js';
import { completeSignIn, tokensOf, type SignInDeps, type SigningDevice } from './sign-in.js';
import type { TermsClaim } from './terms.js';

export interface SignInRouteDeps extends Omit<SignInDeps, 'log'> {
  config: PortalConfig;
  accounts: AccountAdmin;
  sessions: PortalSessions;
  gatewayContexts: GatewayContextStore;
  registry: GatewayRegistry;
}

const signInErrors = {
  400: { description: 'INVALID_REQUEST' },
  401: { description: 'INVALID_CREDENTIALS (identical for every credential failure)' },
  403: {
    description:
      "FORBIDDEN (cross-site request, or a gateway context used from outside its gateway's network), ENTITLEMENT_DENIED with reason, or ALLOWANCE_USED_UP with renewsAt (no time or data left of the period; nothing granted)",
  },
  502: { description: 'UPSTREAM_UNAVAILABLE: identity provider, entitlement or session unavailable; nothing granted' },
};

/** Every sign-in that reaches the entitlement may be refused for an allowance used up (sign-in.ts, step "allowance"). */
const USED_UP = 'ALLOWANCE_USED_UP with renewsAt: no time or data left of the period; nothing granted';

/** Sign-ins by kind, outcome and the refusal's error code (never who). */
const signIns = new Counter({
  name: 'portal_sign_ins_total',
  help: 'Sign-ins by kind (customer, register, employee, phone, voucher), outcome (signed_in, refused) and refusal code.',
  labelNames: ['kind', 'outcome', 'code'],
  registers: [metricsRegistry],
});

async function counted<T>(kind: 'customer' | 'register' | 'employee' | 'phone' | 'voucher', work: Promise<T>): Promise<T> {
  try {
    const done = await work;
    signIns.inc({ kind, outcome: 'signed_in', code: '' });
    return done;
  } catch (error) {
    signIns.inc({ kind, outcome: 'refused', code: error instanceof ApiError ? error.code : 'INTERNAL_ERROR' });
    throw error;
  }
}

const KIND_OF_CLIENT: Record<PortalClient, string> = {
  [CUSTOMER_CLIENT]: 'customer',
  [EMPLOYEE_CLIENT]: 'employee',
  [PHONE_CLIENT]: 'phone',
  [VOUCHER_CLIENT]: 'voucher',
};

/** A sign-in through a gateway answers the page how to log the device in there; it is connecting until the gateway confirms. */
const gatewayFields = (login: GatewayLogin | null) =>
  login === null ? {} : { gateway: login, connection: { state: 'CONNECTING', connected: false, inputOctets: 0, outputOctets: 0, sessionTime: 0 } };

/** The client's address: the one the trusted proxies report (req.ip, PORTAL_TRUSTED_PROXIES). */
const clientAddress = (req: Request) => req.ip ?? req.socket.remoteAddress ?? 'unknown';

/**
 * The steps every way of signing in shares around its credential check: the device settled first,
 * refusals answered at the common pace, then the completion (sign-in.ts), the gateway context used
 * up and the portal session opened.
 */
function signInPipeline(deps: SignInRouteDeps) {
  const { config, sessions } = deps;
  const cookie = sidCookie(config.PORTAL_PUBLIC_URL);

  /** The device signing in: the gateway context's deviceRef when a gateway sent it, else this browser's handle. */
  const signingDevice = async (req: Request): Promise<SigningDevice & { handle: string }> => {
    const browser = deviceOf(req);
    const id = readGatewayCookie(req);
    const context = id === undefined ? undefined : await deps.gatewayContexts.get(id);
    if (context === undefined) return { deviceRef: browser.deviceRef, gateway: null, handle: browser.handle };
    // Checked again here: a context made on the venue's network is not signed in from elsewhere.
    const gateway = deps.registry.get(context.nasId);
    if (gateway === undefined || (arrivalNeedsOutsideAddress(gateway) && !fromGatewayOutside(gateway, clientAddress(req)))) {
      throw new ApiError('FORBIDDEN', { message: 'Sign in from the Wi-Fi network that sent you here.' });
    }
    return { deviceRef: context.deviceRef, gateway: context, handle: browser.handle };
  };

  /** The gateway context a sign-in used is used up (row and cookie), so a replayed cookie names nothing. */
  const useUpGatewayContext = async (req: Request, res: Response, login: GatewayLogin | null, gateway: SigningDevice['gateway']) => {
    const id = readGatewayCookie(req);
    // A queued grant hands nothing to the browser and still uses its context up (openNDS: the grant spent its hid).
    const queued = gateway !== null && gateway !== undefined && grantOf(gateway.profile) === 'queued';
    if ((login === null && !queued) || id === undefined) return;
    await deps.gatewayContexts.drop(id);
    cookie.clearGateway(req, res);
  };

  /** Spec 4.1 rule 4: every refused sign-in is answered at the common pace (refusal-pace.ts), so timing tells nothing. */
  const pace = createRefusalPace({ floorMs: config.LOGIN_FAILURE_FLOOR_MS, ...PACE_DEFAULTS });
  const atThePace = async <T>(started: number, work: Promise<T>): Promise<T> => {
    try {
      return await work;
    } catch (error) {
      if (error instanceof ApiError && error.code === 'INVALID_CREDENTIALS') {
        const wait = pace.releaseAt(started, Date.now()) - Date.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      }
      throw error;
    }
  };

  /** The credential step's outcome, then entitlement and network session, kept behind a new cookie. */
  const signIn = async (
    req: Request,
    res: Response,
    device: SigningDevice & { handle: string },
    client: PortalClient,
    outcome: GrantOutcome,
    refusal: (error: string, status: number) => ApiError,
    terms: TermsClaim,
    correlationId: string,
  ) => {
    const log = res.locals.log;
    if (outcome.kind === 'refused')
      log.info({ idpError: outcome.error, idpStatus: outcome.status, idpErrorDescription: outcome.description }, `${KIND_OF_CLIENT[client]} sign-in refused`);
    const tokens = tokensOf(outcome, (error, status) => refusal(error, status), log);
    const signedIn = await completeSignIn({ ...deps, log }, client, tokens, device, terms, correlationId);
    await useUpGatewayContext(req, res, signedIn.gatewayLogin, device.gateway);
    await sessions.open(req, res, signedIn.data, device.handle, correlationId);
    return { status: 200, body: sessions.view(signedIn.data, signedIn.session, correlationId, gatewayFields(signedIn.gatewayLogin)) };
  };

  // The device (and its gateway context's network) is settled before the password leaves for the identity provider.
  const customerSignIn = async (req: Request, res: Response, username: string, password: string, terms: TermsClaim, correlationId: string) => {
    const device = await signingDevice(req);
    return signIn(req, res, device, CUSTOMER_CLIENT, await deps.idp.passwordGrant(username, password, correlationId), customerRefusal, terms, correlationId);
  };

  /**
   * A route whose credential one identity-provider grant checks (phone code, voucher, employee):
   * counted by kind, refused at the common pace, the device settled before the credential leaves,
   * then completed as every sign-in; the terms are accepted on the channel of its kind.
   */
  const grantRoute = <S extends z.ZodType<{ acceptedTerms?: string | undefined }>>(
    spec: Omit<RouteSpec<S, undefined, undefined>, 'handle' | 'method'>,
    kind: 'employee' | 'phone' | 'voucher',
    client: PortalClient,
    grant: (body: z.output<S>, correlationId: string, clientAddress: string) => Promise<GrantOutcome>,
    refusal: (error: string, status: number) => ApiError,
  ): Route =>
    route<S>({
      ...spec,
      method: 'post',
      handle: ({ body, req, res, correlationId }) => {
        // route() types the body by a conditional TypeScript cannot resolve for a generic schema; S is always one here.
        const parsed = body as z.output<S>;
        return counted(
          kind,
          atThePace(
            Date.now(),
            (async () =>
              signIn(
                req,
                res,
                await signingDevice(req),
                client,
                await grant(parsed, correlationId, clientAddress(req)),
                refusal,
                { channel: kind, acceptedTerms: parsed.acceptedTerms },
                correlationId,
              ))(),
          ),
        );
      },
    });

  return { atThePace, customerSignIn, grantRoute };
}

/**
 * The phone sign-in's two steps: the code request (answered by the identity provider, which makes,
 * keeps and sends the code) and the sign-in with the code, which completes as every other sign-in.
 */
function phoneRoutes(
  deps: SignInRouteDeps,
  sameOriginJson: ReturnType<typeof crossSiteGuard>['sameOriginJson'],
  grantRoute: ReturnType<typeof signInPipeline>['grantRoute'],
): Route[] {
  return [
    route({
      method: 'post',
      path: '/api/v1/auth/phone/code',
      summary: 'Sends a one-time code by SMS to a phone number (the identity provider makes, keeps and sends it); the same answer for every number.',
      body: PhoneCodeRequest,
      steps: [sameOriginJson],
      responses: {
        202: { description: 'A code was sent (also for a number no account carries yet).', schema: PhoneCodeSent },
        400: { description: 'INVALID_REQUEST: not a phone number (checked before any call)' },
        403: { description: 'FORBIDDEN: cross-site request' },
        429: { description: 'RATE_LIMITED: too many codes for this number, or from this client address' },
        502: { description: 'UPSTREAM_UNAVAILABLE: identity provider unavailable' },
        503: { description: 'SERVICE_UNAVAILABLE: the text message could not be sent; nothing was kept' },
      },
      handle: async ({ body, req, res, correlationId }) => {
        const outcome = await deps.idp.phoneGrant({ phone: body.phone }, correlationId, clientAddress(req));
        if (outcome.kind === 'refused' && outcome.error === 'code_sent') {
          const seconds = (name: string, fallback: number) => {
            const value = outcome.seconds?.[name];
            return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : fallback;
          };
          return {
            status: 202,
            body: { sent: true, expiresInSeconds: seconds('expires_in', 300), resendAfterSeconds: seconds('resend_after', 60), correlationId },
          };
        }
        if (outcome.kind === 'tokens') {
          // A grant without a code must never sign anyone in; end what Keycloak opened.
          if (outcome.tokens.refreshToken !== null) await deps.idp.logout(PHONE_CLIENT, outcome.tokens.refreshToken, correlationId);
          throw new ApiError('UPSTREAM_UNAVAILABLE', { message: 'The sign-in could not be completed.' });
        }
        if (outcome.kind === 'refused') res.locals.log.info({ idpError: outcome.error, idpStatus: outcome.status }, 'phone code request refused');
        // Throws the refusal's answer, or 502 for an outage; tokens were handled above.
        tokensOf(outcome, phoneRefusal, res.locals.log);
        throw new ApiError('UPSTREAM_UNAVAILABLE');
      },
    }),
    grantRoute(
      {
        path: '/api/v1/auth/phone',
        summary: 'Phone sign-in with the one-time code: the same entitlement, network session and gateway hand-off as a password sign-in.',
        body: PhoneSignInRequest,
        steps: [sameOriginJson],
        responses: {
          200: { description: 'Signed in; sets cookie sid.', schema: PortalSession },
          400: { description: 'INVALID_REQUEST: not a phone number, or a code that is not six digits' },
          401: { description: 'INVALID_CREDENTIALS: identical for a wrong, expired, used or exhausted code' },
          403: {
            description: `FORBIDDEN (cross-site request, a disabled account, or a gateway context used from outside its network), ENTITLEMENT_DENIED with reason, or ${USED_UP}`,
          },
          429: { description: 'RATE_LIMITED: too many attempts from this client address' },
          502: signInErrors[502],
        },
      },
      'phone',
      PHONE_CLIENT,
      (body, correlationId, address) => deps.idp.phoneGrant({ phone: body.phone, code: body.code }, correlationId, address),
      phoneRefusal,
    ),
  ];
}

/** The voucher sign-in: the code is checked by the identity provider, then completes as every other sign-in. */
function voucherRoutes(
  deps: SignInRouteDeps,
  sameOriginJson: ReturnType<typeof crossSiteGuard>['sameOriginJson'],
  grantRoute: ReturnType<typeof signInPipeline>['grantRoute'],
): Route[] {
  return [
    grantRoute(
      {
        path: '/api/v1/auth/voucher',
        summary:
          'Voucher sign-in with a printed code (any case, spaces and dashes allowed): the same entitlement, network session and gateway hand-off as a password sign-in.',
        body: VoucherSignInRequest,
        steps: [sameOriginJson],
        responses: {
          200: { description: 'Signed in; sets cookie sid.', schema: PortalSession },
          400: { description: 'INVALID_REQUEST: no code, or one longer than 64 characters' },
          401: { description: 'INVALID_CREDENTIALS: identical for a wrong, malformed, not yet valid, expired, revoked or used-up code' },
          403: signInErrors[403],
          429: { description: 'RATE_LIMITED: too many codes tried from this client address' },
          502: signInErrors[502],
        },
      },
      'voucher',
      VOUCHER_CLIENT,
      (body, correlationId, address) => deps.idp.voucherGrant(body.code, correlationId, address),
      voucherRefusal,
    ),
  ];
}

/** Spec 4.1: the three ways to sign in (customer password, registration, employee), one pipeline each; the phone sign-in beside them. */
export function signInRoutes(deps: SignInRouteDeps): Route[] {
  const { sameOriginJson } = crossSiteGuard(deps.config.PORTAL_PUBLIC_URL);
  // Employee attempts per client address, before any call, so one address guessing employee ids
  // cannot use up HR's global ceiling, which stays the backstop for many addresses.
  const perAddress = createCeiling(deps.config.PORTAL_EMPLOYEE_ADDRESS_LIMIT, deps.config.PORTAL_EMPLOYEE_ADDRESS_WINDOW_SECONDS, clientAddress);
  const { atThePace, customerSignIn, grantRoute } = signInPipeline(deps);

  return [
    route({
      method: 'post',
      path: '/api/v1/auth/login',
      summary: 'Customer sign-in: password grant, entitlement, network session granted, one answer.',
      body: LoginRequest,
      steps: [sameOriginJson],
      responses: { 200: { description: 'Signed in; sets cookie sid.', schema: PortalSession }, ...signInErrors },
      handle: ({ body, req, res, correlationId }) =>
        counted(
          'customer',
          atThePace(
            Date.now(),
            customerSignIn(req, res, body.username, body.password, { channel: 'password', acceptedTerms: body.acceptedTerms }, correlationId),
          ),
        ),
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
      handle: ({ body, req, res, correlationId }) =>
        counted(
          'register',
          (async () => {
            const created = await deps.accounts.createAccount(body.email, body.password, body.displayName);
            if (created.kind === 'exists') throw new ApiError('ACCOUNT_EXISTS');
            if (created.kind === 'rejected') throw new ApiError('INVALID_REQUEST', { message: 'The identity provider refused this email or password.' });
            if (created.kind === 'unreachable')
              throw new ApiError('UPSTREAM_UNAVAILABLE', { message: 'The identity provider is unavailable; no account was created.' });
            // Never the address: the operator needs to know the mail server failed, not for whom.
            if (created.verifyMail === 'not-sent')
              res.locals.log.warn('the verify-email mail could not be sent (Keycloak smtpServer); the account signs in with the customer baseline');
            return customerSignIn(req, res, body.email, body.password, { channel: 'register', acceptedTerms: body.acceptedTerms }, correlationId);
          })(),
        ),
    }),
    ...phoneRoutes(deps, sameOriginJson, grantRoute),
    ...voucherRoutes(deps, sameOriginJson, grantRoute),
    grantRoute(
      {
        path: '/api/v1/auth/employee',
        summary: 'Employee sign-in with employee id and citizen number, verified live against HR by the identity provider.',
        body: EmployeeVerifyRequest,
        steps: [sameOriginJson, perAddress.step],
        responses: {
          200: { description: 'Signed in; sets cookie sid.', schema: PortalSession },
          ...signInErrors,
          403: { description: `EMPLOYEE_INACTIVE, FORBIDDEN, ENTITLEMENT_DENIED with reason, or ${USED_UP}` },
          429: { description: 'RATE_LIMITED: too many attempts from this client address, or too many failed submits for this employee id' },
          502: { description: 'UPSTREAM_UNAVAILABLE (identity provider, HR, entitlement or session); nothing granted' },
          504: { description: 'HR_SERVICE_TIMEOUT; access is never granted on timeout' },
        },
      },
      'employee',
      EMPLOYEE_CLIENT,
      (body, correlationId, address) => deps.idp.employeeGrant(body.employeeId, body.citizenId, correlationId, address),
      employeeRefusal,
    ),
  ];
}
