import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { ApiError } from './errors.js';

export const API_KEY_HEADER = 'X-API-Key';

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/** Spec 5: key-authenticated legs. Digests make the comparison constant-time whatever the lengths. */
export function requireApiKey(expected: string): RequestHandler {
  const expectedDigest = digest(expected);
  return (req, _res, next) => {
    const presented = req.get(API_KEY_HEADER);
    if (presented === undefined || !timingSafeEqual(digest(presented), expectedDigest)) {
      throw new ApiError('UNAUTHORIZED', { message: 'A valid X-API-Key header is required.' });
    }
    next();
  };
}
