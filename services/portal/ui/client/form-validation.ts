import type { MessageKey } from './i18n.js';
import { CITIZEN_ID_PATTERN as CITIZEN_ID, EMPLOYEE_ID_PATTERN as EMPLOYEE_ID } from '../../../../contract/ids.js';
import { normalizePhone, ONE_TIME_CODE_PATTERN } from '../../../../contract/phone.js';
import { normalizeVoucherCode } from '../../../../contract/voucher.js';

// Client-side checks mirror spec 2.3 and 8 so most mistakes are caught before a round trip;
// the portal checks again.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function checkEmail(value: string): MessageKey | null {
  return EMAIL.test(value) ? null : 'invalid.email';
}

export function checkPassword(value: string): MessageKey | null {
  return value.length > 0 ? null : 'invalid.passwordRequired';
}

export function checkNewPassword(value: string): MessageKey | null {
  return value.length >= 8 ? null : 'invalid.passwordShort';
}

export function checkEmployeeId(value: string): MessageKey | null {
  return EMPLOYEE_ID.test(value) ? null : 'invalid.employeeId';
}

export function checkCitizenId(value: string): MessageKey | null {
  return CITIZEN_ID.test(value) ? null : 'invalid.citizenId';
}

/** A voucher code as printed: lower case, spaces and dashes are fine; the signs are checked here so a typo is named before a try is spent. */
export function checkVoucherCode(value: string): MessageKey | null {
  return normalizeVoucherCode(value) === undefined ? 'invalid.voucherCode' : null;
}

/** A phone number in any form the portal reads (national Vietnamese, +84, or + and a country code), checked before a code is asked for. */
export function checkPhone(value: string): MessageKey | null {
  return normalizePhone(value) === undefined ? 'invalid.phone' : null;
}

/** Six digits, nothing else: a typo is named here rather than spending one of the code's tries. */
export function checkPhoneCode(value: string): MessageKey | null {
  return ONE_TIME_CODE_PATTERN.test(value) ? null : 'invalid.phoneCode';
}
