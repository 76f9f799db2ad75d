// The parts of spec 2.4 PortalSession, 2.6 Entitlement and 2.7 Session the UI shows.
export interface PortalSession {
  authenticated: true;
  client: string;
  claims: { preferred_username?: string; user_type?: string; employee_ref?: string; email?: string; email_verified?: boolean };
  entitlement: {
    entitlementType: string;
    permission?: { tier?: string; qosClass?: string; deviceSlots?: number };
  };
  session: { state: string; tier: string | null; qosClass: string | null; expiresAt: string | null; remaining?: AllowanceLeft | null };
  /** On a sign-in through a gateway, how to log the device in there. */
  gateway?: { loginUrl: string; method: 'GET' | 'POST'; fields: Record<string, string>; handOff?: 'script' };
  /** Whether the gateway confirmed the device, and what it used. */
  connection?: { state: string; connected: boolean; inputOctets: number; outputOctets: number; sessionTime: number };
}

/** What the person has left of their allowance in the current period (a null amount: no limit). */
export interface AllowanceLeft {
  bytesRemaining: number | null;
  secondsRemaining: number | null;
  renewsAt: string;
}

export type SessionState = PortalSession | { authenticated: false };

/**
 * A customer whose email is not verified yet is told to check their mail (the
 * link Keycloak sent at registration); the member's package comes with the next sign-in after it.
 */
export function needsEmailVerification(claims: PortalSession['claims']): boolean {
  return claims.user_type !== 'EMPLOYEE' && typeof claims.email === 'string' && claims.email_verified === false;
}
