import type { MessageKey } from './i18n.js';

export type FormName = 'signin' | 'register' | 'employee' | 'voucher';

const BY_CODE: Record<string, MessageKey> = {
  INVALID_REQUEST: 'error.INVALID_REQUEST',
  INVALID_CREDENTIALS: 'error.INVALID_CREDENTIALS',
  ACCOUNT_EXISTS: 'error.ACCOUNT_EXISTS',
  EMPLOYEE_INACTIVE: 'error.EMPLOYEE_INACTIVE',
  FORBIDDEN: 'error.FORBIDDEN',
  ENTITLEMENT_DENIED: 'error.ENTITLEMENT_DENIED',
  RATE_LIMITED: 'error.RATE_LIMITED',
  HR_SERVICE_TIMEOUT: 'error.HR_SERVICE_TIMEOUT',
};

// Spec 4.1 rule 3: reasons of an ENTITLEMENT_DENIED body.
const BY_REASON: Record<string, MessageKey> = {
  COMPANY_NOT_ELIGIBLE: 'error.COMPANY_NOT_ELIGIBLE',
  EMPLOYEE_NOT_VERIFIED: 'error.EMPLOYEE_NOT_VERIFIED',
  UNKNOWN_USER_TYPE: 'error.UNKNOWN_USER_TYPE',
};

/**
 * The one text shown for a failed portal call. A 401 has one text per form whatever the cause
 * (spec 1 "No enumeration"); 502, 503 and 504 without a known code say nothing was granted.
 */
export function errorText(form: FormName, failure: { status: number; code?: string; reason?: string }): MessageKey {
  if (failure.status === 0) return 'error.network';
  if (failure.status === 401)
    return form === 'employee' ? 'error.employeeCredentials' : form === 'voucher' ? 'error.voucherCredentials' : 'error.INVALID_CREDENTIALS';
  const byReason = failure.code === 'ENTITLEMENT_DENIED' && failure.reason !== undefined ? BY_REASON[failure.reason] : undefined;
  if (byReason !== undefined) return byReason;
  // Only the employee flow waits on HR (spec 4.1 rule 3); elsewhere a 504 is one more unavailable service.
  if (failure.status === 504 && form === 'employee') return 'error.HR_SERVICE_TIMEOUT';
  if (failure.status >= 502 && failure.status <= 504) return 'error.unavailable';
  const byCode = failure.code === undefined ? undefined : BY_CODE[failure.code];
  if (byCode) return byCode;
  if (failure.status === 400) return 'error.INVALID_REQUEST';
  if (failure.status === 403) return 'error.FORBIDDEN';
  if (failure.status === 409) return 'error.ACCOUNT_EXISTS';
  if (failure.status === 429) return 'error.RATE_LIMITED';
  return 'error.unknown';
}
