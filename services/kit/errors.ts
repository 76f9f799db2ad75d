/**
 * The platform's one error catalogue (spec section 7): every wire code, its HTTP status and
 * the human message sent when the caller gives none. Codes the spec leaves open (404 bodies,
 * the portal's 502s, unready health) are named here once so every service answers alike.
 */
export const ERROR_CATALOGUE = {
  INVALID_CREDENTIALS: { status: 401, message: 'The credentials are not valid.' },
  ACCOUNT_EXISTS: { status: 409, message: 'An account already exists for this email.' },
  INVALID_REQUEST: { status: 400, message: 'The request is malformed.' },
  UNAUTHORIZED: { status: 401, message: 'Authentication is missing or not valid.' },
  FORBIDDEN: { status: 403, message: 'This request is not allowed.' },
  EMPLOYEE_INACTIVE: { status: 403, message: 'The employee is not active.' },
  ENTITLEMENT_DENIED: { status: 403, message: 'Access is not granted.' },
  SESSION_EXPIRED: { status: 409, message: 'The session is revoked or expired.' },
  RATE_LIMITED: { status: 429, message: 'Too many requests; try again later.' },
  HR_SERVICE_UNAVAILABLE: { status: 503, message: 'HR verification is unavailable.' },
  HR_SERVICE_TIMEOUT: { status: 504, message: 'HR verification did not answer in time.' },
  LOYALTY_SERVICE_UNAVAILABLE: { status: 503, message: 'Loyalty lookup is unavailable.' },
  LOYALTY_SERVICE_TIMEOUT: { status: 504, message: 'Loyalty lookup did not answer in time.' },
  DMN_UNAVAILABLE: { status: 503, message: 'No decision model is available.' },
  DMN_EVALUATION_ERROR: { status: 422, message: 'The decision model could not be evaluated.' },
  MODEL_NOT_FOUND: { status: 404, message: 'No decision model has that name.' },
  NOT_FOUND: { status: 404, message: 'Nothing exists at this address.' },
  // IETF httpapi Idempotency-Key draft: a key reused with another payload, or still in flight.
  IDEMPOTENCY_KEY_REUSED: { status: 422, message: 'This Idempotency-Key was used for a different request.' },
  IDEMPOTENCY_KEY_IN_FLIGHT: { status: 409, message: 'A request with this Idempotency-Key is still being processed.' },
  METHOD_NOT_ALLOWED: { status: 405, message: 'This address does not answer that method; see the Allow header.' },
  UPSTREAM_UNAVAILABLE: { status: 502, message: 'A service this request needs is unavailable.' },
  SERVICE_UNAVAILABLE: { status: 503, message: 'The service is not ready.' },
  INTERNAL_ERROR: { status: 500, message: 'Something went wrong on our side.' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

/** Spec 2.2 denial reasons plus the HR reasons. */
export type DenialReason =
  | 'COMPANY_NOT_ELIGIBLE'
  | 'EMPLOYEE_NOT_VERIFIED'
  | 'UNKNOWN_USER_TYPE'
  | 'NOT_FOUND_OR_MISMATCH'
  | 'EMPLOYEE_INACTIVE';

export interface ApiErrorOptions {
  message?: string;
  /** Overrides the catalogue status where the spec gives a code two statuses (ENTITLEMENT_DENIED 403/422). */
  status?: number;
  reason?: DenialReason;
  eligible?: boolean;
}

/** An error that reaches the wire as the spec 2.2 error object. Its message must never carry input values. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly reason: DenialReason | undefined;
  readonly eligible: boolean | undefined;

  constructor(code: ErrorCode, options: ApiErrorOptions = {}) {
    super(options.message ?? ERROR_CATALOGUE[code].message);
    this.name = 'ApiError';
    this.code = code;
    this.status = options.status ?? ERROR_CATALOGUE[code].status;
    this.reason = options.reason;
    this.eligible = options.eligible;
  }
}

export interface ErrorBody {
  code: ErrorCode;
  message: string;
  correlationId: string;
  timestamp: string;
  reason?: DenialReason;
  eligible?: boolean;
}

/** Spec 2.2: the error object every failure answers with. */
export function errorBody(error: ApiError, correlationId: string): ErrorBody {
  const body: ErrorBody = {
    code: error.code,
    message: error.message,
    correlationId,
    timestamp: new Date().toISOString(),
  };
  if (error.reason !== undefined) body.reason = error.reason;
  if (error.eligible !== undefined) body.eligible = error.eligible;
  return body;
}
