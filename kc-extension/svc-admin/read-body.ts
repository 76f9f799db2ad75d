import type { z } from 'zod';
import type { AdminContext } from './context.js';
import { AdminError } from './wire-error.js';

/** Parses the JSON body with a zod schema; a failure is 400 naming the field and the rule, never the value. */
export function readBody<T extends z.ZodType>(context: AdminContext, schema: T): z.output<T> {
  const text = context.host.request.body;
  let json: unknown;
  try {
    json = JSON.parse(text ?? '');
  } catch {
    throw new AdminError('INVALID_REQUEST', 'The body must be a JSON document.');
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new AdminError('INVALID_REQUEST', describeIssue(parsed.error.issues[0]));
  return parsed.data;
}

export function describeIssue(issue: z.core.$ZodIssue | undefined): string {
  if (issue === undefined) return 'The body is not valid.';
  const field = issue.path.length === 0 ? 'body' : issue.path.join('.');
  return `${field}: ${issue.message}`;
}
