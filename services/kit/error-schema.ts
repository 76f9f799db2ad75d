import { z } from 'zod';
import { CORRELATION_ID_PATTERN, DENIAL_REASONS, ERROR_CODES } from '../../contract/index.js';

/** Spec 2.2: the error object, as documented in every service's OpenAPI document. */
export const ErrorBodySchema = z
  .object({
    code: z.enum(ERROR_CODES),
    message: z.string(),
    correlationId: z.string().regex(CORRELATION_ID_PATTERN),
    timestamp: z.iso.datetime(),
    reason: z.enum(DENIAL_REASONS).optional(),
    eligible: z.boolean().optional(),
    renewsAt: z.iso.datetime().optional().describe('Only with ALLOWANCE_USED_UP: when the allowance renews.'),
  })
  .strict()
  .meta({ title: 'ErrorBody' });
