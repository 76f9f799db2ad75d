import { randomUUID } from 'node:crypto';
import { URLS } from '../platform-urls.js';

export interface PortalReply {
  status: number;
  text: string;
  body: Record<string, unknown>;
  headers: Headers;
  cookie: string | undefined;
}

/** A browser-like client of the running portal: same-origin JSON requests, one cookie jar. */
export class PortalBrowser {
  cookie: string | undefined;
  private readonly jar = new Map<string, string>();

  async call(method: 'GET' | 'POST', path: string, json?: unknown, headers: Record<string, string> = {}): Promise<PortalReply> {
    const response = await fetch(`${URLS.portal}${path}`, {
      method,
      headers: {
        ...(method === 'POST' ? { 'content-type': 'application/json', origin: URLS.portal } : {}),
        ...(this.cookie === undefined ? {} : { cookie: this.cookie }),
        ...headers,
      },
      body: method === 'POST' ? JSON.stringify(json ?? {}) : undefined,
      // A redirect is answered, not followed: its cookies (gw from GET /gateway) go into the jar.
      redirect: 'manual',
    });
    const text = await response.text();
    // A cookie jar: every cookie set is kept (sid, the device handle did), a cleared one dropped.
    let pair: string | undefined;
    for (const set of response.headers.getSetCookie()) {
      const [name, value] = (set.split(';')[0] ?? '').split('=') as [string, string | undefined];
      if (name === 'sid') pair = `sid=${value ?? ''}`;
      if (value === undefined || value === '') this.jar.delete(name);
      else this.jar.set(name, value);
    }
    this.cookie = this.jar.size === 0 ? undefined : [...this.jar].map(([name, value]) => `${name}=${value}`).join('; ');
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      // not JSON: left empty, the status tells
    }
    return { status: response.status, text, body, headers: response.headers, cookie: pair };
  }

  login = (username: string, password: string) => this.call('POST', '/api/v1/auth/login', { username, password });
  employee = (employeeId: string, citizenId: string, headers: Record<string, string> = {}) =>
    this.call('POST', '/api/v1/auth/employee', { employeeId, citizenId }, headers);
  register = (email: string, password: string, displayName?: string) =>
    this.call('POST', '/api/v1/auth/register', { email, password, ...(displayName === undefined ? {} : { displayName }) });
  voucher = (code: string) => this.call('POST', '/api/v1/auth/voucher', { code });
  session = () => this.call('GET', '/api/v1/auth/session');
  refresh = () => this.call('POST', '/api/v1/auth/refresh');
  logout = () => this.call('POST', '/api/v1/auth/logout');
}

/** The session service's own view of a network session. */
export async function networkSession(sessionId: string): Promise<Record<string, unknown>> {
  const response = await fetch(`${URLS.session}/api/v1/sessions/${sessionId}`, {
    headers: { 'X-API-Key': process.env['SESSION_TOOLS_KEY'] ?? 'dev-session-tools-key' },
  });
  return (await response.json()) as Record<string, unknown>;
}

export const freshEmail = (prefix = 'guest'): string => `${prefix}-${randomUUID().slice(0, 8)}@example.com`;

/** The error body without its per-request fields, to compare two refusals byte for byte. */
export function stableError(reply: PortalReply): string {
  const { correlationId: _c, timestamp: _t, ...rest } = reply.body;
  return JSON.stringify(rest);
}
