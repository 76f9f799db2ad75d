import type { z } from 'zod';
import { ApiError } from './errors.js';

/**
 * Parses a request body against its schema. The 400 message names the field and the rule it
 * broke, never the value sent (a citizen number must not come back in a response).
 */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  if (body === undefined) {
    throw new ApiError('INVALID_REQUEST', { message: 'A JSON body (Content-Type: application/json) is required.' });
  }
  const result = schema.safeParse(body);
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
    throw new ApiError('INVALID_REQUEST', { message: `${where}${issue?.message ?? 'invalid body'}` });
  }
  return result.data;
}

/** Path or query parameters against their schemas: the same 400, naming the parameter and its rule. */
export function parseFields<S extends z.ZodType>(schema: S, fields: unknown): z.output<S> {
  return parseBody(schema, fields ?? {});
}
