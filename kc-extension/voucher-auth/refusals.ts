import type { AuthOutcome, FlowError } from '../host/auth-host.js';

/**
 * Token-endpoint answers of the voucher flow that are not a sign-in. A wrong, malformed, expired,
 * not yet valid, revoked and used-up code are one byte-identical `invalid_grant`: nothing tells
 * a guesser which codes exist.
 */
export type VoucherRefusalCode = 'invalid_grant' | 'rate_limited' | 'authenticator_misconfigured';

const CATALOGUE: Record<VoucherRefusalCode, { status: number; flowError: FlowError; description: string }> = {
  invalid_grant: { status: 401, flowError: 'INVALID_CREDENTIALS', description: 'Invalid voucher code' },
  rate_limited: { status: 429, flowError: 'USER_TEMPORARILY_DISABLED', description: 'RATE_LIMITED' },
  authenticator_misconfigured: { status: 503, flowError: 'INTERNAL_ERROR', description: 'AUTHENTICATOR_MISCONFIGURED' },
};

export function refuseVoucher(code: VoucherRefusalCode): AuthOutcome {
  const entry = CATALOGUE[code];
  return { type: 'failure', status: entry.status, flowError: entry.flowError, eventError: code, body: { error: code, error_description: entry.description } };
}
