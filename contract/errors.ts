/**
 * The platform's one error catalogue (spec 7): every wire code with its HTTP status and the
 * human message sent when the raiser gives none. Codes the spec leaves open (404 bodies, 405,
 * the portal's 502s, unready health, the unexpected) are named here once so every party answers
 * alike.
 */
export const ERROR_CATALOGUE = {
  INVALID_CREDENTIALS: { status: 401, message: 'The credentials are not valid.' },
  ACCOUNT_EXISTS: { status: 409, message: 'An account already exists for this email.' },
  INVALID_REQUEST: { status: 400, message: 'The request is malformed.' },
  UNAUTHORIZED: { status: 401, message: 'Authentication is missing or not valid.' },
  FORBIDDEN: { status: 403, message: 'This request is not allowed.' },
  EMPLOYEE_INACTIVE: { status: 403, message: 'The employee is not active.' },
  ENTITLEMENT_DENIED: { status: 403, message: 'Access is not granted.' },
  // The person's allowance for the period (time or data) is used up: `renewsAt` says when it comes back.
  ALLOWANCE_USED_UP: { status: 403, message: 'Your allowance for this period is used up.' },
  SESSION_EXPIRED: { status: 409, message: 'The session is revoked or expired.' },
  DEVICE_SLOTS_FULL: { status: 409, message: 'Every device slot of this sign-in is in use; remove a device first.' },
  RATE_LIMITED: { status: 429, message: 'Too many requests; try again later.' },
  HR_SERVICE_UNAVAILABLE: { status: 503, message: 'HR verification is unavailable.' },
  HR_SERVICE_TIMEOUT: { status: 504, message: 'HR verification did not answer in time.' },
  LOYALTY_SERVICE_UNAVAILABLE: { status: 503, message: 'Loyalty lookup is unavailable.' },
  LOYALTY_SERVICE_TIMEOUT: { status: 504, message: 'Loyalty lookup did not answer in time.' },
  DMN_UNAVAILABLE: { status: 503, message: 'No decision model is available.' },
  DMN_EVALUATION_ERROR: { status: 422, message: 'The decision model could not be evaluated.' },
  MODEL_NOT_FOUND: { status: 404, message: 'No decision model has that name.' },
  // Spec 7 gives it no status ("n/a"): the employee flow refuses with 403.
  IDENTITY_LINK_CONFLICT: { status: 403, message: 'The employee account cannot be linked; an administrator must fix it.' },
  // An imported employee's account is removed by its company's HR process, not by its holder.
  ACCOUNT_MANAGED_BY_EMPLOYER: { status: 403, message: "This account belongs to your employer's records; ask your company's HR to remove it." },
  ACCOUNT_MANAGED_BY_VENUE: { status: 403, message: "This is the venue's voucher, not a personal account; the venue's staff end it." },
  NOT_FOUND: { status: 404, message: 'Nothing exists at this address.' },
  METHOD_NOT_ALLOWED: { status: 405, message: 'This address does not answer that method; see the Allow header.' },
  // IETF httpapi Idempotency-Key draft: a key reused with another payload, or still in flight.
  IDEMPOTENCY_KEY_REUSED: { status: 422, message: 'This Idempotency-Key was used for a different request.' },
  IDEMPOTENCY_KEY_IN_FLIGHT: { status: 409, message: 'A request with this Idempotency-Key is still being processed.' },
  UPSTREAM_UNAVAILABLE: { status: 502, message: 'A service this request needs is unavailable.' },
  SERVICE_UNAVAILABLE: { status: 503, message: 'The service is not ready.' },
  INTERNAL_ERROR: { status: 500, message: 'Something went wrong on our side.' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

export const ERROR_CODES = Object.keys(ERROR_CATALOGUE) as [ErrorCode, ...ErrorCode[]];

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_CATALOGUE, value);
}

/** Spec 7 denial reasons (field `reason`), then the HR reasons. */
export const DENIAL_REASONS = ['COMPANY_NOT_ELIGIBLE', 'EMPLOYEE_NOT_VERIFIED', 'UNKNOWN_USER_TYPE', 'NOT_FOUND_OR_MISMATCH', 'EMPLOYEE_INACTIVE'] as const;
export type DenialReason = (typeof DENIAL_REASONS)[number];

/** Spec 2.2: the error object every failure answers with. */
export interface ErrorBody {
  code: ErrorCode;
  message: string;
  correlationId: string;
  timestamp: string;
  reason?: DenialReason;
  eligible?: boolean;
  /** Only with ALLOWANCE_USED_UP: when the allowance renews (ISO 8601, UTC). */
  renewsAt?: string;
}

export interface ErrorFields {
  code: ErrorCode;
  /** Human text; the catalogue's message when absent. Must never carry an input value. */
  message?: string;
  reason?: DenialReason;
  eligible?: boolean;
  renewsAt?: string;
}

/** Builds the spec 2.2 error object; `now` is for tests. */
export function errorBody(fields: ErrorFields, correlationId: string, now: Date = new Date()): ErrorBody {
  const body: ErrorBody = {
    code: fields.code,
    message: fields.message ?? ERROR_CATALOGUE[fields.code].message,
    correlationId,
    timestamp: now.toISOString(),
  };
  if (fields.reason !== undefined) body.reason = fields.reason;
  if (fields.eligible !== undefined) body.eligible = fields.eligible;
  if (fields.renewsAt !== undefined) body.renewsAt = fields.renewsAt;
  return body;
}
