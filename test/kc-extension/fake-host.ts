import { createHmac } from 'node:crypto';
import type { AuthHost, HttpReply, UserView } from '../../kc-extension/host/auth-host.js';

/** The development WIFI_VOUCHER_HASH_KEY (spi-wrapper's fallback): the fake hashes codes as Keycloak's test run does. */
export const VOUCHER_HASH_KEY = 'dev-voucher-hash-key';

export interface HttpCall {
  url: string;
  headers: Record<string, string>;
  body: unknown;
  timeoutMs: number;
  /** Sent form-encoded (postForm): `body` holds the fields. */
  form?: true;
}

export interface FakeHost extends AuthHost {
  users: AuthHost['users'] & { all: Map<string, StoredUser> };
  httpCalls: HttpCall[];
  /** Attribute names of each setAttributes call. */
  attributeWrites: string[][];
  logs: string[];
  events: Record<string, string>;
  /** Single-use store: key to the clock time it expires. */
  counterEntries: Map<string, number>;
  /** Single-use store values: key to value and expiry. */
  valueEntries: Map<string, { value: string; until: number }>;
  /** Advances the fake clock. */
  advance(ms: number): void;
}

interface StoredUser {
  id: string;
  username: string;
  enabled: boolean;
  hasPassword: boolean;
  attributes: Record<string, string>;
}

export const HR_CONFIG = {
  hrUrl: 'http://hr.test',
  hrApiKey: 'test-key',
  hrTimeoutMs: '3000',
  hrAttempts: '2',
  submitLimit: '5',
  submitWindowSeconds: '900',
  addressLimit: '30',
  addressWindowSeconds: '60',
};

export const hrOk = (body: unknown): HttpReply => ({ kind: 'response', status: 200, body: JSON.stringify(body) });
export const hrStatus = (status: number): HttpReply => ({ kind: 'response', status, body: '{}' });
export const ACTIVE = { verified: true, active: true, employeeRef: 'HR-A-0001', company: 'MEMBER_A', wifiEligible: true };
export const NO_MATCH = { verified: false, active: false, reason: 'NOT_FOUND_OR_MISMATCH' };

/**
 * An in-memory AuthHost: the same facade the wrapper provides inside Keycloak. HTTP replies
 * are scripted in order; the last one repeats.
 */
export function fakeHost(
  options: {
    form?: Record<string, string>;
    headers?: Record<string, string>;
    /** The client address Keycloak would report; 198.51.100.7 unless given. */
    address?: string;
    config?: Record<string, string>;
    replies?: HttpReply[];
    users?: Array<{ username: string; enabled?: boolean; hasPassword?: boolean; attributes?: Record<string, string> }>;
  } = {},
): FakeHost {
  let now = 1_000_000;
  let ids = 0;
  const all = new Map<string, StoredUser>();
  const view = (id: string): UserView => {
    const user = all.get(id)!;
    return { id: user.id, username: user.username, enabled: user.enabled, hasPassword: user.hasPassword, attributes: { ...user.attributes } };
  };
  for (const user of options.users ?? []) {
    const id = `user-${++ids}`;
    all.set(id, { id, username: user.username, enabled: user.enabled ?? true, hasPassword: user.hasPassword ?? false, attributes: { ...user.attributes } });
  }
  const replies = [...(options.replies ?? [hrOk(ACTIVE)])];
  const httpCalls: HttpCall[] = [];
  const attributeWrites: string[][] = [];
  const logs: string[] = [];
  const events: Record<string, string> = {};
  const counterEntries = new Map<string, number>();
  const valueEntries = new Map<string, { value: string; until: number }>();
  const form = options.form ?? {};
  const headers = options.headers ?? {};
  return {
    request: {
      formParam: (name) => form[name],
      header: (name) => headers[name],
      clientAddress: () => options.address ?? '198.51.100.7',
    },
    config: options.config ?? HR_CONFIG,
    http: {
      postJson: (url, hdrs, body, timeoutMs) => {
        httpCalls.push({ url, headers: hdrs, body, timeoutMs });
        return replies.length > 1 ? replies.shift()! : replies[0]!;
      },
      postForm: (url, hdrs, fields, timeoutMs) => {
        httpCalls.push({ url, headers: hdrs, body: fields, timeoutMs, form: true });
        return replies.length > 1 ? replies.shift()! : replies[0]!;
      },
    },
    users: {
      all,
      findByAttribute: (name, value) => [...all.values()].filter((u) => u.attributes[name] === value).map((u) => view(u.id)),
      findByUsername: (username) => {
        const found = [...all.values()].find((u) => u.username === username);
        return found === undefined ? undefined : view(found.id);
      },
      create: (username) => {
        const id = `user-${++ids}`;
        all.set(id, { id, username, enabled: true, hasPassword: false, attributes: {} });
        return view(id);
      },
      setAttributes: (userId, attributes) => {
        attributeWrites.push(Object.keys(attributes));
        Object.assign(all.get(userId)!.attributes, attributes);
      },
    },
    counters: {
      claim: (key, ttlSeconds) => {
        if ((counterEntries.get(key) ?? 0) > now) return false;
        counterEntries.set(key, now + ttlSeconds * 1000);
        return true;
      },
      exists: (key) => (counterEntries.get(key) ?? 0) > now,
      remove: (key) => void counterEntries.delete(key),
    },
    counterEntries,
    values: {
      put: (key, ttlSeconds, value) => void valueEntries.set(key, { value, until: now + ttlSeconds * 1000 }),
      get: (key) => {
        const entry = valueEntries.get(key);
        return entry !== undefined && entry.until > now ? entry.value : undefined;
      },
      take: (key) => {
        const entry = valueEntries.get(key);
        valueEntries.delete(key);
        return entry !== undefined && entry.until > now ? entry.value : undefined;
      },
    },
    valueEntries,
    hmacHex: (key, data) => createHmac('sha256', key).update(data, 'utf8').digest('hex'),
    voucherHashHex: (data) => createHmac('sha256', VOUCHER_HASH_KEY).update(data, 'utf8').digest('hex'),
    log: {
      info: (m) => void logs.push(`info ${m}`),
      warn: (m) => void logs.push(`warn ${m}`),
      error: (m) => void logs.push(`error ${m}`),
    },
    logs,
    events,
    eventDetail: (key, value) => void (events[key] = value),
    newUuid: () => '00000000-0000-4000-8000-000000000001',
    nowMs: () => now,
    advance: (ms) => void (now += ms),
    httpCalls,
    attributeWrites,
  };
}
