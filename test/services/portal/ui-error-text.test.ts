import test from 'ava';
import { errorText, type FormName } from '../../../services/portal/ui/client/error-text.js';
import type { MessageKey } from '../../../services/portal/ui/client/i18n.js';

type Failure = { status: number; code?: string; reason?: string };
const CASES: Array<[string, FormName, Failure, MessageKey]> = [
  ['a network failure', 'signin', { status: 0 }, 'error.network'],
  ['INVALID_REQUEST', 'register', { status: 400, code: 'INVALID_REQUEST' }, 'error.INVALID_REQUEST'],
  ['INVALID_CREDENTIALS', 'signin', { status: 401, code: 'INVALID_CREDENTIALS' }, 'error.INVALID_CREDENTIALS'],
  ['a 401 with another code', 'signin', { status: 401, code: 'UNAUTHORIZED' }, 'error.INVALID_CREDENTIALS'],
  ['an employee 401', 'employee', { status: 401, code: 'INVALID_CREDENTIALS' }, 'error.employeeCredentials'],
  ['a voucher 401 (wrong, expired, revoked or used up alike)', 'voucher', { status: 401, code: 'INVALID_CREDENTIALS' }, 'error.voucherCredentials'],
  ['a voucher 429', 'voucher', { status: 429, code: 'RATE_LIMITED' }, 'error.RATE_LIMITED'],
  ['ACCOUNT_EXISTS', 'register', { status: 409, code: 'ACCOUNT_EXISTS' }, 'error.ACCOUNT_EXISTS'],
  ['EMPLOYEE_INACTIVE', 'employee', { status: 403, code: 'EMPLOYEE_INACTIVE' }, 'error.EMPLOYEE_INACTIVE'],
  ['FORBIDDEN', 'employee', { status: 403, code: 'FORBIDDEN' }, 'error.FORBIDDEN'],
  ['a login 403 without a code', 'signin', { status: 403 }, 'error.FORBIDDEN'],
  ['ENTITLEMENT_DENIED without reason', 'signin', { status: 403, code: 'ENTITLEMENT_DENIED' }, 'error.ENTITLEMENT_DENIED'],
  ['COMPANY_NOT_ELIGIBLE', 'employee', { status: 403, code: 'ENTITLEMENT_DENIED', reason: 'COMPANY_NOT_ELIGIBLE' }, 'error.COMPANY_NOT_ELIGIBLE'],
  ['EMPLOYEE_NOT_VERIFIED', 'employee', { status: 403, code: 'ENTITLEMENT_DENIED', reason: 'EMPLOYEE_NOT_VERIFIED' }, 'error.EMPLOYEE_NOT_VERIFIED'],
  ['UNKNOWN_USER_TYPE', 'signin', { status: 403, code: 'ENTITLEMENT_DENIED', reason: 'UNKNOWN_USER_TYPE' }, 'error.UNKNOWN_USER_TYPE'],
  ['RATE_LIMITED', 'employee', { status: 429, code: 'RATE_LIMITED' }, 'error.RATE_LIMITED'],
  ['HR_SERVICE_TIMEOUT', 'employee', { status: 504, code: 'HR_SERVICE_TIMEOUT' }, 'error.HR_SERVICE_TIMEOUT'],
  ['a customer 504', 'signin', { status: 504 }, 'error.unavailable'],
  ['a 502 with any code', 'signin', { status: 502, code: 'UPSTREAM_UNAVAILABLE' }, 'error.unavailable'],
  ['a 502 without a body', 'employee', { status: 502 }, 'error.unavailable'],
  ['a 503', 'employee', { status: 503, code: 'HR_SERVICE_UNAVAILABLE' }, 'error.unavailable'],
  ['a 500', 'register', { status: 500, code: 'INTERNAL_ERROR' }, 'error.unknown'],
];

for (const [name, form, failure, key] of CASES) {
  test(`${name} on the ${form} form shows ${key}`, (t) => {
    t.is(errorText(form, failure), key);
  });
}
