import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';
import { ApiError } from '../kit/index.js';
import type { EntitlementConfig } from './config.js';

/** What the platform reads from a verified access token (spec 4.3 rule 1: the token is the input). */
export interface TokenFacts {
  subjectId: string;
  userType: string | null;
  employeeVerified: boolean | null;
  company: string | null;
  email: string | null;
  /** Keycloak's `email_verified`: only a verified address is looked up at loyalty (a member's address can be registered by anyone). */
  emailVerified: boolean;
  /**
   * The phone number an SMS code proved (E.164), from a token of the phone client only: that
   * client's sign-in is the proof; elsewhere the attribute is just what an account carries.
   */
  verifiedPhone: string | null;
  employeeRef: string | null;
  wifiEligible: boolean | null;
}

export type TokenVerifier = (authorization: string | undefined) => Promise<TokenFacts>;

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const flag = (value: unknown): boolean | null => (typeof value === 'boolean' ? value : value === 'true' ? true : value === 'false' ? false : null);

/**
 * The employee claims count only in a token the employee client obtained (`azp`): that client's
 * sign-in is the live HR check. Any other client's token (a customer's password grant among them)
 * reaches no employee rule, whatever attributes its account carries: an account an import or an
 * administrator wrongly marked must not turn a password into the employee package.
 */
function facts(payload: JWTPayload, employeeClient: string, phoneClient: string): TokenFacts {
  if (typeof payload.sub !== 'string' || payload.sub === '') throw new Error('no sub');
  const employee = payload['azp'] === employeeClient;
  return {
    subjectId: payload.sub,
    userType: text(payload['user_type']),
    employeeVerified: employee ? flag(payload['employee_verified']) : null,
    company: employee ? text(payload['company']) : null,
    email: text(payload['email']),
    emailVerified: payload['email_verified'] === true,
    verifiedPhone: payload['azp'] === phoneClient && flag(payload['phone_number_verified']) === true ? text(payload['phone_number']) : null,
    employeeRef: employee ? text(payload['employee_ref']) : null,
    wifiEligible: employee ? flag(payload['wifi_eligible']) : null,
  };
}

/**
 * Bearer JWT verification with jose (spec 5): RS256 only (so `alg: none` and HS256 with the public
 * key as secret fail), issuer, audience, expiry; keys from a remote key set that jose refreshes
 * once when a token names an unknown key id. Every failure, a key-set outage included, is 401.
 */
export function createTokenVerifier(config: EntitlementConfig): TokenVerifier {
  const keys = createRemoteJWKSet(new URL(config.IDP_JWKS_URL), {
    timeoutDuration: config.JWKS_TIMEOUT_MS,
    cooldownDuration: config.JWKS_COOLDOWN_MS,
  });
  return async (authorization) => {
    const token = /^Bearer ([A-Za-z0-9._~+/-]+=*)$/.exec(authorization ?? '')?.[1];
    if (token === undefined) throw new ApiError('UNAUTHORIZED', { message: 'A Bearer access token is required.' });
    try {
      const { payload } = await jwtVerify(token, keys, {
        algorithms: ['RS256'],
        issuer: config.IDP_ISSUER,
        audience: config.IDP_AUDIENCES,
        requiredClaims: ['exp', 'sub'],
      });
      return facts(payload, config.IDP_EMPLOYEE_CLIENT, config.IDP_PHONE_CLIENT);
    } catch {
      throw new ApiError('UNAUTHORIZED', { message: 'The access token could not be verified.' });
    }
  };
}
