import { ApiError } from '../kit/index.js';

/**
 * One portal answer per token-endpoint refusal (spec 4.1 rules 3-4, README "Design decisions").
 * Customer refusals are all one 401: Keycloak answers wrong password (401), unknown account and
 * lockout (400) differently, and none of that may show.
 */
export function customerRefusal(): ApiError {
  return new ApiError('INVALID_CREDENTIALS');
}

// The employee authenticator's errors (kc-extension/README.md "Error bodies").
const EMPLOYEE: Record<string, () => ApiError> = {
  invalid_grant: () => new ApiError('INVALID_CREDENTIALS'),
  invalid_request: () => new ApiError('INVALID_REQUEST', { message: 'employeeId and citizenId are required.' }),
  employee_inactive: () => new ApiError('EMPLOYEE_INACTIVE'),
  account_disabled: () => new ApiError('FORBIDDEN', { message: 'This employee account is disabled.' }),
  identity_link_conflict: () => new ApiError('FORBIDDEN', { message: 'This employee account needs attention from an administrator.' }),
  rate_limited: () => new ApiError('RATE_LIMITED'),
  hr_timeout: () => new ApiError('HR_SERVICE_TIMEOUT'),
  // Spec 4.1 lists 502 for an employee sign-in that cannot be completed; HR down is one.
  hr_unavailable: () => new ApiError('HR_SERVICE_UNAVAILABLE', { status: 502 }),
};

export function employeeRefusal(error: string): ApiError {
  return (EMPLOYEE[error] ?? (() => new ApiError('UPSTREAM_UNAVAILABLE', { message: 'The sign-in could not be completed.' })))();
}
