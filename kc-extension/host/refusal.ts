import type { AuthOutcome, FlowError } from './auth-host.js';

/** One token-endpoint refusal: its status, the flow error Keycloak records, a constant description. */
export interface RefusalEntry {
  status: number;
  flowError: FlowError;
  description: string;
}

/**
 * The refusals every direct-grant authenticator answers the same way, whatever it checks: the
 * portal maps each of them once (docs/develop/keycloak-extension.md, "Error bodies").
 */
export const SHARED_REFUSALS = {
  account_disabled: { status: 403, flowError: 'USER_DISABLED', description: 'Account disabled' },
  identity_link_conflict: { status: 403, flowError: 'ACCESS_DENIED', description: 'IDENTITY_LINK_CONFLICT' },
  rate_limited: { status: 429, flowError: 'USER_TEMPORARILY_DISABLED', description: 'RATE_LIMITED' },
  // The execution's settings are unusable: an administrator must fix them; no peer was asked.
  authenticator_misconfigured: { status: 503, flowError: 'INTERNAL_ERROR', description: 'AUTHENTICATOR_MISCONFIGURED' },
} as const satisfies Record<string, RefusalEntry>;

/**
 * A flow's refusal answers from its catalogue. Bodies are constant, so the cases a flow must not
 * tell apart (an unknown account, a wrong secret, a malformed one) are byte-identical.
 */
export function refusalsOf<Code extends string>(catalogue: Record<Code, RefusalEntry>): (code: Code) => AuthOutcome {
  return (code) => {
    const entry = catalogue[code];
    return { type: 'failure', status: entry.status, flowError: entry.flowError, eventError: code, body: { error: code, error_description: entry.description } };
  };
}
