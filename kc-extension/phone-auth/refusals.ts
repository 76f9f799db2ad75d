import type { AuthOutcome, FlowError } from '../host/auth-host.js';

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

const CATALOGUE: Record<PhoneRefusalCode, { status: number; flowError: FlowError; description: string }> = {
  invalid_request: { status: 400, flowError: 'INVALID_CREDENTIALS', description: 'phone is required and must be a phone number' },
  invalid_grant: { status: 401, flowError: 'INVALID_CREDENTIALS', description: 'Invalid phone number or code' },
  account_disabled: { status: 403, flowError: 'USER_DISABLED', description: 'Account disabled' },
  identity_link_conflict: { status: 403, flowError: 'ACCESS_DENIED', description: 'IDENTITY_LINK_CONFLICT' },
  rate_limited: { status: 429, flowError: 'USER_TEMPORARILY_DISABLED', description: 'RATE_LIMITED' },
  sms_unavailable: { status: 503, flowError: 'INTERNAL_ERROR', description: 'SMS_UNAVAILABLE' },
  authenticator_misconfigured: { status: 503, flowError: 'INTERNAL_ERROR', description: 'AUTHENTICATOR_MISCONFIGURED' },
};

export function refusePhone(code: PhoneRefusalCode): AuthOutcome {
  const entry = CATALOGUE[code];
  return { type: 'failure', status: entry.status, flowError: entry.flowError, eventError: code, body: { error: code, error_description: entry.description } };
}

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
