import type { AuthOutcome, FlowError } from '../host/auth-host.js';

/**
 * Token-endpoint refusals of the employee flow: one entry per case the portal maps
 * (docs/develop/keycloak-extension.md, "Error bodies"). Bodies are constant so that cases which must look
 * alike (unknown id, wrong or malformed citizen number) are byte-identical.
 */
export type RefusalCode =
  | 'invalid_request'
  | 'invalid_grant'
  | 'employee_inactive'
  | 'account_disabled'
  | 'identity_link_conflict'
  | 'rate_limited'
  | 'hr_timeout'
  | 'hr_unavailable'
  | 'authenticator_misconfigured';

interface RefusalEntry {
  status: number;
  flowError: FlowError;
  description: string;
}

const CATALOGUE: Record<RefusalCode, RefusalEntry> = {
  invalid_request: { status: 400, flowError: 'INVALID_CREDENTIALS', description: 'employeeId and citizenId are required' },
  // spec 4.1 rule 3: unknown id, wrong and malformed citizen number all answer this.
  invalid_grant: { status: 401, flowError: 'INVALID_CREDENTIALS', description: 'Invalid employee credentials' },
  employee_inactive: { status: 403, flowError: 'ACCESS_DENIED', description: 'EMPLOYEE_INACTIVE' },
  account_disabled: { status: 403, flowError: 'USER_DISABLED', description: 'Account disabled' },
  identity_link_conflict: { status: 403, flowError: 'ACCESS_DENIED', description: 'IDENTITY_LINK_CONFLICT' },
  rate_limited: { status: 429, flowError: 'USER_TEMPORARILY_DISABLED', description: 'RATE_LIMITED' },
  hr_timeout: { status: 504, flowError: 'INTERNAL_ERROR', description: 'HR_SERVICE_TIMEOUT' },
  hr_unavailable: { status: 503, flowError: 'INTERNAL_ERROR', description: 'HR_SERVICE_UNAVAILABLE' },
  // The execution's settings are unusable: an administrator must fix them; HR was never asked.
  authenticator_misconfigured: { status: 503, flowError: 'INTERNAL_ERROR', description: 'AUTHENTICATOR_MISCONFIGURED' },
};

export function refuse(code: RefusalCode): AuthOutcome {
  const entry = CATALOGUE[code];
  return {
    type: 'failure',
    status: entry.status,
    flowError: entry.flowError,
    eventError: code,
    body: { error: code, error_description: entry.description },
  };
}
