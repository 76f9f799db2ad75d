import { ERROR_CATALOGUE, errorBody as buildErrorBody, type DenialReason, type ErrorBody, type ErrorCode } from '../../contract/index.js';

// The catalogue, codes, reasons and the 2.2 body live in the wire contract (contract/errors.ts).
export { ERROR_CATALOGUE };
export type { DenialReason, ErrorBody, ErrorCode };

export interface ApiErrorOptions {
  message?: string;
  /** Overrides the catalogue status where the spec gives a code two statuses (ENTITLEMENT_DENIED 403/422). */
  status?: number;
  reason?: DenialReason;
  eligible?: boolean;
  /** ALLOWANCE_USED_UP: when the allowance renews (ISO 8601). */
  renewsAt?: string;
}

/** An error that reaches the wire as the spec 2.2 error object. Its message must never carry input values. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly reason: DenialReason | undefined;
  readonly eligible: boolean | undefined;
  readonly renewsAt: string | undefined;

  constructor(code: ErrorCode, options: ApiErrorOptions = {}) {
    super(options.message ?? ERROR_CATALOGUE[code].message);
    this.name = 'ApiError';
    this.code = code;
    this.status = options.status ?? ERROR_CATALOGUE[code].status;
    this.reason = options.reason;
    this.eligible = options.eligible;
    this.renewsAt = options.renewsAt;
  }
}

/** Spec 2.2: the error object every failure answers with. */
export function errorBody(error: ApiError, correlationId: string): ErrorBody {
  return buildErrorBody({ code: error.code, message: error.message, reason: error.reason, eligible: error.eligible, renewsAt: error.renewsAt }, correlationId);
}
