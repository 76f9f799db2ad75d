/// <reference lib="dom" />
import { moduleBase } from './sign-in.js';

const TOKEN_KEY = 'svc-admin-token';

export const session = {
  token: (): string | null => sessionStorage.getItem(TOKEN_KEY),
  keep: (token: string): void => sessionStorage.setItem(TOKEN_KEY, token),
  end: (): void => sessionStorage.removeItem(TOKEN_KEY),
};

/** Fired on `window` when the token is gone or refused: the page goes back to its signed-out state. */
export const SIGNED_OUT = 'svc-admin-signed-out';

function signedOut(message: string): Error {
  session.end();
  window.dispatchEvent(new Event(SIGNED_OUT));
  return new Error(message);
}

interface WireError {
  code?: unknown;
  message?: unknown;
}

/** Calls the module's own `/api/*`; a failure becomes an Error whose message is the module's `code: message`. */
export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const token = session.token();
  if (token === null) throw signedOut('UNAUTHORIZED: sign in first.');
  let response: Response;
  try {
    response = await fetch(`${moduleBase()}api/${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch {
    throw new Error('NETWORK: Keycloak could not be reached. Check the connection and try again.');
  }
  const data = (await response.json().catch(() => ({}))) as T & WireError;
  if (response.status === 401) throw signedOut('UNAUTHORIZED: your session has ended. Sign in again.');
  if (!response.ok) {
    const code = typeof data.code === 'string' ? data.code : `HTTP_${response.status}`;
    const message = typeof data.message === 'string' ? data.message : 'the request failed.';
    throw new Error(`${code}: ${message}`);
  }
  return data;
}
