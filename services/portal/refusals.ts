import { ApiError } from '../kit/index.js';

/**
 * One portal answer per token-endpoint refusal (spec 4.1 rules 3-4, docs/decisions/0050-no-enumeration.md).
 * Customer refusals are all one 401: Keycloak answers wrong password (401), unknown account and
 * lockout (400) differently, and none of that may show.
 */
export function customerRefusal(_error: string, status: number): ApiError {
  // A refusal is a 4xx; a 503/504 with an error body is the identity provider not coping, which
  // no customer may be told is a wrong password (spec 8: identity provider down -> both fail).
  if (status >= 500) return new ApiError('UPSTREAM_UNAVAILABLE', { message: 'The identity provider is unavailable; no access was granted.' });
  return new ApiError('INVALID_CREDENTIALS');
}

// The employee authenticator's errors (docs/develop/keycloak-extension.md "Error bodies").
const EMPLOYEE: Record<string, () => ApiError> = {
  invalid_grant: () => new ApiError('INVALID_CREDENTIALS'),
  invalid_request: () => new ApiError('INVALID_REQUEST', { message: 'employeeId and citizenId are required.' }),
  employee_inactive: () => new ApiError('EMPLOYEE_INACTIVE'),
  account_disabled: () => new ApiError('FORBIDDEN', { message: 'This employee account is disabled.' }),
  identity_link_conflict: () => new ApiError('FORBIDDEN', { message: 'This employee account needs attention from an administrator.' }),
  rate_limited: () => new ApiError('RATE_LIMITED'),
  hr_timeout: () => new ApiError('HR_SERVICE_TIMEOUT'),
  // Spec 4.1 lists 502 for an employee sign-in that cannot be completed; HR down is one. Its
  // code is the portal's 502 code: HR_SERVICE_UNAVAILABLE is HR's own 503 (spec 7).
  hr_unavailable: () => new ApiError('UPSTREAM_UNAVAILABLE', { message: 'HR verification is unavailable; no access was granted.' }),
};

export function employeeRefusal(error: string): ApiError {
  return (EMPLOYEE[error] ?? (() => new ApiError('UPSTREAM_UNAVAILABLE', { message: 'The sign-in could not be completed.' })))();
}

// The phone authenticator's errors (kc-extension/README.md "Phone authenticator"); `code_sent` is
// no refusal and is answered by the route.
const PHONE: Record<string, () => ApiError> = {
  invalid_grant: () => new ApiError('INVALID_CREDENTIALS'),
  invalid_request: () => new ApiError('INVALID_REQUEST', { message: 'phone must be a phone number.' }),
  account_disabled: () => new ApiError('FORBIDDEN', { message: 'This account is disabled.' }),
  identity_link_conflict: () => new ApiError('FORBIDDEN', { message: 'This account needs attention from an administrator.' }),
  rate_limited: () => new ApiError('RATE_LIMITED'),
  // Nothing was created: the person may ask again in a moment.
  sms_unavailable: () => new ApiError('SERVICE_UNAVAILABLE', { message: 'The text message could not be sent; try again in a moment.' }),
};

export function phoneRefusal(error: string): ApiError {
  return (PHONE[error] ?? (() => new ApiError('UPSTREAM_UNAVAILABLE', { message: 'The sign-in could not be completed.' })))();
}

// The voucher authenticator's errors (docs/develop/keycloak-extension.md "Voucher authenticator"):
// every code failure is its one invalid_grant.
const VOUCHER: Record<string, () => ApiError> = {
  invalid_grant: () => new ApiError('INVALID_CREDENTIALS'),
  rate_limited: () => new ApiError('RATE_LIMITED'),
};

export function voucherRefusal(error: string): ApiError {
  return (VOUCHER[error] ?? (() => new ApiError('UPSTREAM_UNAVAILABLE', { message: 'The sign-in could not be completed.' })))();
}
