import { z } from 'zod';
import { ERROR_CATALOGUE, type ErrorCode } from './errors.js';

const CODES = Object.keys(ERROR_CATALOGUE) as [ErrorCode, ...ErrorCode[]];

/** Spec 2.2: the error object, as documented in every service's OpenAPI document. */
export const ErrorBodySchema = z
  .object({
    code: z.enum(CODES),
    message: z.string(),
    correlationId: z.string().regex(/^corr-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i),
    timestamp: z.iso.datetime(),
    reason: z.enum(['COMPANY_NOT_ELIGIBLE', 'EMPLOYEE_NOT_VERIFIED', 'UNKNOWN_USER_TYPE', 'NOT_FOUND_OR_MISMATCH', 'EMPLOYEE_INACTIVE']).optional(),
    eligible: z.boolean().optional(),
  })
  .strict()
  .meta({ title: 'ErrorBody' });
