import { createRemoteJWKSet, jwtVerify } from 'jose';
import type { PortalConfig } from './config.js';

// Spec 2.4 "claims seen", plus the email, whether it is verified (the page asks
// an unverified customer to check their mail) and Wi-Fi eligibility shown on the signed-in page.
// Everything else in the token stays server-side; no claim ever carries a citizen number.
const DISPLAYED = [
  'sub',
  'aud',
  'azp',
  'preferred_username',
  'email',
  'email_verified',
  'user_type',
  'employee_verified',
  'employee_ref',
  'company',
  'wifi_eligible',
] as const;

export type ClaimsReader = (accessToken: string) => Promise<Record<string, unknown>>;

/** Verifies a token the identity provider just issued (keys, issuer, expiry) and keeps the displayed claims. */
export function createClaimsReader(config: PortalConfig): ClaimsReader {
  const keys = createRemoteJWKSet(new URL(`${config.IDP_URL}/realms/${config.IDP_REALM}/protocol/openid-connect/certs`), {
    timeoutDuration: 4000,
  });
  const issuer = `${config.IDP_PUBLIC_URL ?? config.IDP_URL}/realms/${config.IDP_REALM}`;
  return async (accessToken) => {
    const { payload } = await jwtVerify(accessToken, keys, { issuer, algorithms: ['RS256'] });
    const claims: Record<string, unknown> = {};
    for (const name of DISPLAYED) {
      if (payload[name] === undefined) continue;
      claims[name] = name === 'aud' && typeof payload.aud === 'string' ? [payload.aud] : payload[name];
    }
    return claims;
  };
}
