import { refusalsOf, SHARED_REFUSALS } from '../host/refusal.js';

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

export const refuse = refusalsOf<RefusalCode>({
  ...SHARED_REFUSALS,
  invalid_request: { status: 400, flowError: 'INVALID_CREDENTIALS', description: 'employeeId and citizenId are required' },
  // spec 4.1 rule 3: unknown id, wrong and malformed citizen number all answer this.
  invalid_grant: { status: 401, flowError: 'INVALID_CREDENTIALS', description: 'Invalid employee credentials' },
  employee_inactive: { status: 403, flowError: 'ACCESS_DENIED', description: 'EMPLOYEE_INACTIVE' },
  hr_timeout: { status: 504, flowError: 'INTERNAL_ERROR', description: 'HR_SERVICE_TIMEOUT' },
  hr_unavailable: { status: 503, flowError: 'INTERNAL_ERROR', description: 'HR_SERVICE_UNAVAILABLE' },
});
