/// <reference lib="dom" />

/** What the portal (spec 4.1) answered, reduced to what the UI needs. */
export type ApiResult<T> = { ok: true; data: T; serverTime: number } | ApiFailure;

/** A refused or failed call; `status` 0 when the portal could not be reached. */
export interface ApiFailure {
  ok: false;
  status: number;
  code?: string;
  reason?: string;
  /** The whole error object, for a refusal that carries more than its code (ALLOWANCE_USED_UP's renewal). */
  body?: Record<string, unknown>;
}

/**
 * Calls the portal's own API. State-changing calls carry a JSON content type and the `Origin`
 * the portal's same-origin check reads. The request's referrer policy is `same-origin`: under the
 * page's `no-referrer`, the Fetch standard's "append a request Origin header" lets an engine send
 * `Origin: null` on a same-origin POST (Chromium sends the origin anyway; WebKit's captive window
 * is not tested here).
 */
export async function callApi<T>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<ApiResult<T>> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers: method === 'POST' ? { 'Content-Type': 'application/json', Accept: 'application/json' } : { Accept: 'application/json' },
      body: method === 'POST' ? JSON.stringify(body ?? {}) : null,
      credentials: 'same-origin',
      cache: 'no-store',
      referrerPolicy: 'same-origin',
    });
  } catch {
    return { ok: false, status: 0 };
  }
  const parsed = await response.json().then(
    (value: unknown) => value,
    () => undefined,
  );
  const object = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
  if (!response.ok) {
    const failure: ApiFailure = { ok: false, status: response.status, body: object };
    if (typeof object.code === 'string') failure.code = object.code;
    if (typeof object.reason === 'string') failure.reason = object.reason;
    return failure;
  }
  // The server's clock drives the countdown: a phone that just joined may not have synced its own.
  const date = Date.parse(response.headers.get('Date') ?? '');
  return { ok: true, data: object as T, serverTime: Number.isNaN(date) ? Date.now() : date };
}
