import type { AuthOutcome } from '../host/auth-host.js';
import { refusalsOf, SHARED_REFUSALS } from '../host/refusal.js';

/**
 * Token-endpoint answers of the phone flow that are not a sign-in. Bodies are constant, so the
 * cases that must look alike are byte-identical: a wrong, expired, used or exhausted code, a
 * number nobody signed in with and a malformed one all answer `invalid_grant`.
 */
export type PhoneRefusalCode =
  | 'invalid_request'
  | 'invalid_grant'
  | 'account_disabled'
  | 'identity_link_conflict'
  | 'rate_limited'
  | 'sms_unavailable'
  | 'authenticator_misconfigured';

export const refusePhone = refusalsOf<PhoneRefusalCode>({
  ...SHARED_REFUSALS,
  invalid_request: { status: 400, flowError: 'INVALID_CREDENTIALS', description: 'phone is required and must be a phone number' },
  invalid_grant: { status: 401, flowError: 'INVALID_CREDENTIALS', description: 'Invalid phone number or code' },
  sms_unavailable: { status: 503, flowError: 'INTERNAL_ERROR', description: 'SMS_UNAVAILABLE' },
});

/**
 * The first step's answer: a code went out. A direct grant has no "pending" outcome, so it is a
 * refusal the portal knows (401 `code_sent`), carrying the code's lifetime and the resend gap.
 */
export function codeSent(expiresIn: number, resendAfter: number): AuthOutcome {
  return {
    type: 'failure',
    status: 401,
    flowError: 'INVALID_CREDENTIALS',
    eventError: 'code_sent',
    body: { error: 'code_sent', error_description: 'CODE_SENT', expires_in: expiresIn, resend_after: resendAfter },
  };
}
