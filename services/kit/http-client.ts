import { request, type Dispatcher } from 'undici';
import { ConstantBackoff, handleType, handleWhen, retry, TaskCancelledError, timeout, TimeoutStrategy, wrap } from 'cockatiel';
import { CORRELATION_HEADER } from './correlation.js';
import { outboundCalls, outboundSeconds } from './metrics.js';

/** Why an outbound call produced no usable answer. */
export type OutboundFailure = 'timeout' | 'unreachable' | 'bad-response';

export class OutboundError extends Error {
  constructor(
    readonly failure: OutboundFailure,
    readonly target: string,
  ) {
    super(`${failure} calling ${target}`);
    this.name = 'OutboundError';
  }
}

export interface OutboundResponse {
  status: number;
  body: unknown;
}

export interface OutboundCall {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  body?: unknown;
  /** Sent as application/x-www-form-urlencoded instead of a JSON body (OAuth token endpoints). */
  form?: Record<string, string>;
  headers?: Record<string, string>;
  correlationId: string;
  /** Budget of one attempt, in milliseconds. */
  timeoutMs: number;
  /**
   * Total attempts (default 1). Timeouts and unreachable peers are retried whatever the method,
   * so the caller decides what is safe to repeat: give more than one only to reads, read-only
   * POSTs (HR verify) and writes carrying an Idempotency-Key. An HTTP answer and an unreadable
   * body are never retried.
   */
  attempts?: number;
  /**
   * Attempts more when the connection failed (refused, reset, closed under the request), never
   * after a timeout (default 0). For a call that is safe to repeat but whose budget is one
   * timeout, inside a caller's own budget (the decision, between loyalty and the portal's 5 s):
   * a reset socket answers in microseconds, so a second attempt costs nothing a person notices.
   */
  reconnects?: number;
  /** Ends the call early (the caller is stopping): it then fails as a timeout. */
  signal?: AbortSignal;
}

/**
 * A peer that refused a request before reading it: 503 with Retry-After and no JSON body, which
 * is how a Keycloak node answers while it is still starting (its bootstrap filter runs before any
 * endpoint; it opens its port before it is ready) and how a proxy answers for a peer it cannot
 * use. Nothing was done, so the call is sent again whatever its method and its `attempts` (behind
 * a balancer, to the next peer) at most NOT_PROCESSED_RETRIES times; a JSON 503 is an answer.
 */
class NotProcessed extends Error {}
const NOT_PROCESSED_RETRIES = 2;

// The policies are stateless (no breaker), so one per (timeout, attempts) serves every call:
// building them per call showed in the portal's profile. `abortOnReturn: false`: cockatiel would
// otherwise abort each call's signal after it returned, which creates a DOMException (a stack
// trace) per call, half a millisecond of CPU per sign-in in the portal; the request has been read
// to its end by then, and a timeout still aborts it.
const policies = new Map<string, ReturnType<typeof policyFor>>();
const retryable = (error: Error) => error instanceof TaskCancelledError || (error instanceof OutboundError && error.failure !== 'bad-response');
const lostConnection = (error: Error) => error instanceof OutboundError && error.failure === 'unreachable';
function policyFor(timeoutMs: number, attempts: number, reconnects: number) {
  return wrap(
    retry(handleType(NotProcessed), { maxAttempts: NOT_PROCESSED_RETRIES, backoff: new ConstantBackoff(0) }),
    retry(handleWhen(retryable), { maxAttempts: Math.max(0, attempts - 1), backoff: new ConstantBackoff(0) }),
    retry(handleWhen(lostConnection), { maxAttempts: reconnects, backoff: new ConstantBackoff(0) }),
    timeout(timeoutMs, { strategy: TimeoutStrategy.Aggressive, abortOnReturn: false }),
  );
}

/**
 * One outbound JSON call with undici: a per-attempt timeout (cockatiel aborts the request),
 * bounded attempts, and the correlation id always carried. Any HTTP status is an answer and
 * is returned, not thrown; only "no answer" and "unreadable answer" throw OutboundError.
 */
export async function callJson(call: OutboundCall): Promise<OutboundResponse> {
  const target = new URL(call.url).origin;
  // An aggressive timeout rejects with TaskCancelledError before the aborted request settles.
  // (instanceof, not cockatiel 3.2's isTaskCancelledError, which tests the wrong property.)
  const attempts = call.attempts ?? 1;
  const reconnects = call.reconnects ?? 0;
  const key = `${call.timeoutMs}:${attempts}:${reconnects}`;
  let policy = policies.get(key);
  if (policy === undefined) {
    policy = policyFor(call.timeoutMs, attempts, reconnects);
    policies.set(key, policy);
  }
  const timer = outboundSeconds.startTimer({ peer: target });
  try {
    const response = await policy.execute(
      ({ signal }) => attempt(call, target, call.signal === undefined ? signal : AbortSignal.any([signal, call.signal])),
      call.signal,
    );
    outboundCalls.inc({ peer: target, outcome: `status_${Math.floor(response.status / 100)}xx` });
    return response;
  } catch (error) {
    const failure = outboundFailure(error, target);
    outboundCalls.inc({ peer: target, outcome: failure.failure });
    throw failure;
  } finally {
    timer();
  }
}

function outboundFailure(error: unknown, target: string): OutboundError {
  if (error instanceof NotProcessed) return new OutboundError('bad-response', target);
  if (error instanceof OutboundError) return error;
  if (error instanceof TaskCancelledError) return new OutboundError('timeout', target);
  return new OutboundError('unreachable', target);
}

async function attempt(call: OutboundCall, target: string, signal: AbortSignal): Promise<OutboundResponse> {
  let response: Dispatcher.ResponseData;
  try {
    const [contentType, body] =
      call.form !== undefined
        ? ['application/x-www-form-urlencoded', new URLSearchParams(call.form).toString()]
        : call.body !== undefined
          ? ['application/json', JSON.stringify(call.body)]
          : [undefined, undefined];
    response = await request(call.url, {
      method: call.method ?? (body === undefined ? 'GET' : 'POST'),
      headers: {
        accept: 'application/json',
        ...(contentType === undefined ? {} : { 'content-type': contentType }),
        [CORRELATION_HEADER]: call.correlationId,
        ...call.headers,
      },
      body,
      signal,
      // The attempt's timeout above (cockatiel) covers the headers and the body. undici's own
      // timeouts would only repeat it, and while a request is open they keep a 500 ms tick
      // running: a held read of the change feed woke its process twice a second (idle).
      headersTimeout: 0,
      bodyTimeout: 0,
    });
  } catch {
    throw new OutboundError(signal.aborted ? 'timeout' : 'unreachable', target);
  }
  let text: string;
  try {
    text = await response.body.text();
  } catch {
    throw new OutboundError(signal.aborted ? 'timeout' : 'bad-response', target);
  }
  const notJson = !String(response.headers['content-type'] ?? '').includes('json');
  if (response.statusCode === 503 && response.headers['retry-after'] !== undefined && notJson) throw new NotProcessed();
  if (text === '') return { status: response.statusCode, body: undefined };
  try {
    return { status: response.statusCode, body: JSON.parse(text) as unknown };
  } catch {
    throw new OutboundError('bad-response', target);
  }
}
