/**
 * The wire contract (spec 2.1, 2.2, 7, 8), written once: pure TypeScript without Node or
 * browser APIs, so the services, the code bundled into Keycloak and the tests share it.
 */
export { CORRELATION_HEADER, CORRELATION_ID_PATTERN, acceptCorrelationId, isCorrelationId } from './correlation.js';
export {
  CITIZEN_ID_PATTERN,
  COMPANY_CODE_PATTERN,
  EMPLOYEE_ID_PATTERN,
  ENTITLEMENT_ID_PATTERN,
  NAME_PATTERN,
  NAS_ID_PATTERN,
  PATH_ID_PATTERN,
  SESSION_ID_PATTERN,
  UUID,
  entitlementId,
  sessionId,
} from './ids.js';
export { DENIAL_REASONS, ERROR_CATALOGUE, ERROR_CODES, errorBody, isErrorCode } from './errors.js';
export type { DenialReason, ErrorBody, ErrorCode, ErrorFields } from './errors.js';
export { BUFFERED_USERNAME_HASH } from './gateway.js';
export type { CredentialRequest, GatewayContext, GatewayLogin, OpenndsAuthorisationRequest } from './gateway.js';
export { E164_PATTERN, ONE_TIME_CODE_PATTERN, normalizePhone } from './phone.js';
export {
  VOUCHER_ALPHABET,
  VOUCHER_CODE_BITS,
  VOUCHER_CODE_IN_TEXT,
  VOUCHER_CODE_LENGTH,
  VOUCHER_CODE_PATTERN,
  VOUCHER_USERNAME_PREFIX,
  formatVoucherCode,
  normalizeVoucherCode,
  voucherCodeFromHex,
  voucherHashInput,
} from './voucher.js';
