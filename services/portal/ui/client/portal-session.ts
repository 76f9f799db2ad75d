// The parts of spec 2.4 PortalSession, 2.6 Entitlement and 2.7 Session the UI shows.
export interface PortalSession {
  authenticated: true;
  client: string;
  claims: { preferred_username?: string; user_type?: string; employee_ref?: string };
  entitlement: {
    entitlementType: string;
    permission?: { tier?: string; qosClass?: string; deviceSlots?: number };
  };
  session: { state: string; tier: string | null; qosClass: string | null; expiresAt: string | null };
  /** Issue 17: on a sign-in through a gateway, how to log the device in there. */
  gateway?: { loginUrl: string; method: 'GET' | 'POST'; fields: Record<string, string>; handOff?: 'script' };
  /** Issue 17: whether the gateway confirmed the device, and what it used. */
  connection?: { state: string; connected: boolean; inputOctets: number; outputOctets: number; sessionTime: number };
}

export type SessionState = PortalSession | { authenticated: false };
