import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { AdminHost, AdminUser, GetResult, PlatformService, PostResult, VerifiedToken } from '../../../kc-extension/host/admin-host.js';

/**
 * In-memory AdminHost: the same facade spi-wrapper implements over Keycloak, with Node crypto.
 * One instance is one realm on one node; `request` is swapped per call by `send`.
 */
export interface MemoryRealm {
  name: string;
  emailAsUsername: boolean;
  store: Map<string, string>;
  users: Map<string, AdminUser>;
  rings: Map<string, string[]>;
  /**
   * The cluster-wide single-use store (key to expiry in ms on `clockMs`): share one map between
   * two realms to model two Keycloak nodes of one cluster (their node memory stays apart).
   */
  once: Map<string, number>;
  /** Keycloak's TEST_HARNESS switch. */
  testHarness: boolean;
  /** userId to number of live sessions. */
  sessions: Map<string, number>;
  /** userId to the realm roles the user holds (composites and groups resolved). */
  realmRoles: Map<string, string[]>;
  /** Bearer token string to what Keycloak would have verified (absent: bad token). */
  tokens: Map<string, VerifiedToken>;
  /** Keycloak's SVC_ADMIN_PROBE_ALLOW. */
  probeAllow: string;
  /** Keycloak's SVC_ADMIN_AUDIT_RETENTION_DAYS ('' unset). */
  auditRetentionDays: string;
  http: {
    resolve(name: string): string[] | undefined;
    getAt(url: string, address: string, timeoutMs: number): GetResult;
    postJson(url: string, body: string, timeoutMs: number): PostResult;
    postToSessions(path: string, body: string, timeoutMs: number): PostResult;
    service(service: PlatformService, method: 'GET' | 'POST', path: string, body: string | undefined, timeoutMs: number): PostResult;
  };
  /** What was asked of the platform services (svc-admin's person pages), in order. */
  serviceCalls: Array<{ service: PlatformService; method: string; path: string }>;
  /** What was posted to the session service, in order. */
  sessionCalls: Array<{ path: string; body: string }>;
  files: Map<string, string>;
  /** The GUI's manifest.json as the jar would carry it; undefined: a jar built without the GUI. */
  guiManifest: string | undefined;
  logs: string[];
  clockMs: number;
  /** What the current request asked to happen once its transaction commits. */
  afterCommit: Array<() => void>;
  /** How many of the next commits fail (an injected database failure at commit). */
  failingCommits: number;
}

export function memoryRealm(name = 'wifi'): MemoryRealm {
  return {
    name,
    emailAsUsername: false,
    store: new Map(),
    users: new Map(),
    rings: new Map(),
    once: new Map(),
    testHarness: false,
    probeAllow: '',
    auditRetentionDays: '',
    sessions: new Map(),
    realmRoles: new Map(),
    tokens: new Map(),
    http: {
      // Address literals resolve to themselves, names to nothing (tests add theirs).
      resolve: (name) => (/^[\d.]+$|:/.test(name) ? [name] : undefined),
      getAt: () => ({ failure: 'unreachable' }),
      postJson: () => ({ failure: 'unreachable' }),
      postToSessions: () => ({ status: 200, body: '{"revoked":[]}' }),
      service: () => ({ failure: 'unreachable' }),
    },
    serviceCalls: [],
    sessionCalls: [],
    files: new Map(),
    guiManifest: undefined,
    logs: [],
    clockMs: Date.now(),
    afterCommit: [],
    failingCommits: 0,
  };
}

/**
 * Ends a request as Keycloak does: a reply asking for rollback, or an injected commit failure,
 * drops what was to happen after the commit (the in-memory realm keeps its writes, a real one
 * would not: tests of a failed commit look only at what came after it). Answers whether it committed.
 */
export function completeRequest(realm: MemoryRealm, rollback: boolean): boolean {
  const committed = !rollback && realm.failingCommits === 0;
  if (!rollback && realm.failingCommits > 0) realm.failingCommits -= 1;
  const pending = realm.afterCommit.splice(0);
  if (committed) for (const run of pending) run();
  return committed;
}

// Sealing in memory: a reversible tag is enough, the real host uses AES-GCM (SecretSealer).
const SEALED = 'sealed:mem:';
const open = (sealed: string): Buffer | undefined => (sealed.startsWith(SEALED) ? Buffer.from(sealed.slice(SEALED.length), 'base64') : undefined);

export interface MemoryRequest {
  method: string;
  path: string;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export function memoryHost(realm: MemoryRealm, request: MemoryRequest): AdminHost {
  const headers = new Map(Object.entries(request.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
  const rawBody = request.body === undefined ? undefined : Buffer.isBuffer(request.body) ? request.body : Buffer.from(request.body, 'utf8');
  const bearer = /^Bearer (.+)$/.exec(headers.get('authorization') ?? '')?.[1];
  const requireUser = (id: string): AdminUser => {
    const user = realm.users.get(id);
    if (user === undefined) throw new Error('user vanished');
    return user;
  };
  const hmac = (sealed: string, ...chunks: Buffer[]): string | undefined => {
    const key = open(sealed);
    if (key === undefined) return undefined;
    const mac = createHmac('sha256', key);
    for (const chunk of chunks) mac.update(chunk);
    return mac.digest('base64');
  };
  const copy = (user: AdminUser): AdminUser => ({ ...user, attributes: { ...user.attributes } });
  return {
    request: {
      method: request.method,
      path: request.path,
      body: rawBody?.toString('utf8'),
      header: (name) => headers.get(name.toLowerCase()),
      query: (name) => request.query?.[name],
      token: bearer === undefined ? undefined : realm.tokens.get(bearer),
    },
    realm: { name: realm.name, emailAsUsername: realm.emailAsUsername },
    store: {
      get: (key) => realm.store.get(key),
      put: (key, value) => void realm.store.set(key, value),
      claim: (key, value) => {
        if (!realm.store.has(key)) realm.store.set(key, value);
        return realm.store.get(key)!;
      },
      remove: (key) => void realm.store.delete(key),
      list: (prefix) => Object.fromEntries([...realm.store].filter(([key]) => key.startsWith(prefix))),
    },
    users: {
      findByKeys: (keys) => {
        const wanted = Object.entries(keys.attributes).map(([name, values]) => [name, new Set(values)] as const);
        const usernames = new Set(keys.usernames);
        const emails = new Set(keys.emails);
        const carries = (user: AdminUser): boolean =>
          wanted.some(([name, values]) => values.has(user.attributes[name] ?? '')) ||
          usernames.has(user.username) ||
          (user.email !== undefined && emails.has(user.email));
        return [...realm.users.values()].filter(carries).map(copy);
      },
      findByAttribute: (name, value, max) =>
        [...realm.users.values()]
          .filter((user) => user.attributes[name] === value)
          .slice(0, max)
          .map(copy),
      create: (username, email, attributes) => {
        const user: AdminUser = {
          id: randomUUID(),
          username: username.toLowerCase(),
          email: email?.toLowerCase(),
          emailVerified: false,
          enabled: true,
          hasPassword: false,
          attributes: { ...attributes },
        };
        realm.users.set(user.id, user);
        return copy(user);
      },
      get: (id) => {
        const user = realm.users.get(id);
        return user === undefined ? undefined : copy(user);
      },
      remove: (id) => {
        realm.users.delete(id);
        realm.sessions.delete(id);
        return true;
      },
      setAttributes: (id, attributes) => Object.assign(requireUser(id).attributes, attributes),
      setEnabled: (id, enabled) => void (requireUser(id).enabled = enabled),
      endSessions: (id) => {
        const count = realm.sessions.get(id) ?? 0;
        realm.sessions.set(id, 0);
        return count;
      },
      hasRealmRole: (id, role) => (realm.realmRoles.get(id) ?? []).includes(role),
    },
    crypto: {
      seal: (plain) => SEALED + Buffer.from(plain, 'utf8').toString('base64'),
      newSealedKey: () => SEALED + randomBytes(32).toString('base64'),
      hmac: (key, text) => hmac(key, Buffer.from(text, 'utf8')),
      hmacOverBody: (key, prefix) => hmac(key, Buffer.from(prefix, 'utf8'), rawBody ?? Buffer.alloc(0)),
      // Keycloak's development WIFI_VOUCHER_HASH_KEY, so a code made here is found as the test run's Keycloak would.
      voucherHashHex: (data) => createHmac('sha256', 'dev-voucher-hash-key').update(data, 'utf8').digest('hex'),
    },
    memory: {
      append: (ring, entry, capacity) => {
        const entries = realm.rings.get(ring) ?? [];
        entries.unshift(entry);
        realm.rings.set(ring, entries.slice(0, capacity));
      },
      read: (ring, limit) => (realm.rings.get(ring) ?? []).slice(0, limit).map((entry) => JSON.parse(entry) as unknown),
    },
    once: {
      seen: (key) => (realm.once.get(key) ?? -Infinity) > realm.clockMs,
      rememberOnCommit: (key, ttlSeconds) => {
        realm.afterCommit.push(() => {
          if (!((realm.once.get(key) ?? -Infinity) > realm.clockMs)) realm.once.set(key, realm.clockMs + ttlSeconds * 1000);
        });
      },
    },
    testHarness: realm.testHarness,
    probeAllow: realm.probeAllow,
    auditRetentionDays: realm.auditRetentionDays,
    http: {
      ...realm.http,
      postToSessions: (path, body, timeoutMs) => {
        realm.sessionCalls.push({ path, body });
        return realm.http.postToSessions(path, body, timeoutMs);
      },
      service: (service, method, path, body, timeoutMs) => {
        realm.serviceCalls.push({ service, method, path });
        return realm.http.service(service, method, path, body, timeoutMs);
      },
    },
    models: {
      list: () => [...realm.files.keys()].sort(),
      read: (file) => realm.files.get(file),
      write: (file, content) => {
        realm.files.set(file, content);
        return true;
      },
    },
    assets: { manifestJson: () => realm.guiManifest },
    newUuid: () => randomUUID(),
    nowMs: () => realm.clockMs,
    log: (_level, message) => void realm.logs.push(message),
  };
}
