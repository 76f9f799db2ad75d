import { refusalsOf, SHARED_REFUSALS } from '../host/refusal.js';

/**
 * Token-endpoint answers of the voucher flow that are not a sign-in. A wrong, malformed, expired,
 * not yet valid, revoked and used-up code are one byte-identical `invalid_grant`: nothing tells
 * a guesser which codes exist.
 */
export type VoucherRefusalCode = 'invalid_grant' | 'rate_limited' | 'authenticator_misconfigured';

export const refuseVoucher = refusalsOf<VoucherRefusalCode>({
  invalid_grant: { status: 401, flowError: 'INVALID_CREDENTIALS', description: 'Invalid voucher code' },
  rate_limited: SHARED_REFUSALS.rate_limited,
  authenticator_misconfigured: SHARED_REFUSALS.authenticator_misconfigured,
});
