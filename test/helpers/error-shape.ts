import type { ExecutionContext } from 'ava';
import type { Answer } from './service.js';

/** Asserts a spec 2.2 error object with this status and code. */
export function assertError(t: ExecutionContext, answer: Answer, status: number, code: string): void {
  t.is(answer.status, status, answer.text);
  t.is(answer.body.code, code);
  t.is(typeof answer.body.message, 'string');
  t.regex(String(answer.body.correlationId), /^corr-[0-9a-f-]{36}$/);
  t.is(answer.body.correlationId, answer.headers.get('x-correlation-id'));
  t.false(Number.isNaN(Date.parse(String(answer.body.timestamp))));
  t.false(/\.[cm]?[jt]s:\d+|node:internal|\n\s+at /.test(answer.text), 'no stack trace in the body');
}
