import type { Request } from 'express';
import { ApiError } from './errors.js';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

// Printable ASCII, as the IETF httpapi Idempotency-Key draft's examples; long enough for a UUID
// with a prefix, short enough to index.
const KEY_SHAPE = /^[\x21-\x7e]{1,255}$/;

/** Spec 2.1: the optional repeat-safe key of a request; a malformed one is a 400, never ignored. */
export function readIdempotencyKey(req: Request): string | undefined {
  const value = req.get(IDEMPOTENCY_KEY_HEADER);
  if (value === undefined) return undefined;
  if (!KEY_SHAPE.test(value)) {
    throw new ApiError('INVALID_REQUEST', { message: `${IDEMPOTENCY_KEY_HEADER} must be 1-255 printable characters.` });
  }
  return value;
}
