import type { ExecutionContext } from 'ava';
import { CORRELATION_ID_PATTERN, isErrorCode } from '../../contract/index.js';
import type { Answer } from './service.js';

/** Asserts a spec 2.2 error object with this status and code. */
export function assertError(t: ExecutionContext, answer: Answer, status: number, code: string): void {
  t.is(answer.status, status, answer.text);
  t.is(answer.body.code, code);
  t.true(isErrorCode(answer.body.code), 'a code of the wire contract');
  t.is(typeof answer.body.message, 'string');
  t.regex(String(answer.body.correlationId), CORRELATION_ID_PATTERN);
  t.is(answer.body.correlationId, answer.headers.get('x-correlation-id'));
  t.false(Number.isNaN(Date.parse(String(answer.body.timestamp))));
  t.false(/\.[cm]?[jt]s:\d+|node:internal|\n\s+at /.test(answer.text), 'no stack trace in the body');
}
