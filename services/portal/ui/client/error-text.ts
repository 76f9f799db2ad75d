import type { MessageKey } from './i18n.js';

/** The forms: `phoneCode` asks for a code by SMS, `phone` signs in with it. */
export type FormName = 'signin' | 'register' | 'employee' | 'voucher' | 'phoneCode' | 'phone';

// A 401 has one text per form whatever the cause (spec 1 "No enumeration").
const CREDENTIALS: Partial<Record<FormName, MessageKey>> = {
  employee: 'error.employeeCredentials',
  voucher: 'error.voucherCredentials',
  phone: 'error.phoneCredentials',
};

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
  if (failure.status === 401) return CREDENTIALS[form] ?? 'error.INVALID_CREDENTIALS';
  // The phone's limits count codes per number and per address: the text says so, whichever step hit it.
  if (failure.status === 429 && (form === 'phone' || form === 'phoneCode')) return 'error.phoneRateLimited';
  // A code request's 503 is the SMS gateway failing: nothing was sent, asking again is the way on.
  if (failure.status === 503 && form === 'phoneCode') return 'error.smsUnavailable';
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

/**
 * The renewal a sign-in refusal names when the person's allowance for the period is used up
 * (403 ALLOWANCE_USED_UP with `renewsAt`): that refusal has a page of its own. Null for any other
 * refusal, which stays on its form.
 */
export function usedUpRenewal(failure: { status: number; code?: string; body?: Record<string, unknown> }): string | null {
  if (failure.status !== 403 || failure.code !== 'ALLOWANCE_USED_UP') return null;
  const renewsAt = failure.body?.['renewsAt'];
  return typeof renewsAt === 'string' && !Number.isNaN(Date.parse(renewsAt)) ? renewsAt : null;
}
