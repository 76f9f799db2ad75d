import type { AdminHost, AdminReply, AdminUser, GetResult, PostResult, VerifiedToken } from './admin-host.js';

/** The raw Java object for one svc-admin request (spi-wrapper AdminHostFacade). */
export interface JavaAdminHost {
  method(): string;
  path(): string;
  query(name: string): string | null;
  header(name: string): string | null;
  body(): string | null;
  authJson(): string | null;
  realmName(): string;
  realmEmailAsUsername(): boolean;
  storeGet(key: string): string | null;
  storePut(key: string, value: string): void;
  storeClaim(key: string, value: string): string;
  storeRemove(key: string): void;
  storeList(prefix: string): string;
  seal(plain: string): string;
  newSealedKey(): string;
  hmac(sealedKey: string, text: string): string | null;
  hmacOverBody(sealedKey: string, prefix: string): string | null;
  voucherHashHex(data: string): string;
  ringAppend(ring: string, entryJson: string, capacity: number): void;
  ringRead(ring: string, limit: number): string;
  onceSeen(key: string): boolean;
  onceRememberOnCommit(key: string, ttlSeconds: number): void;
  testHarness(): boolean;
  findUsersByKeys(keysJson: string): string;
  findUsersByAttribute(name: string, value: string, max: number): string;
  createUser(username: string, email: string | null, attributesJson: string): string;
  setUserAttributes(userId: string, attributesJson: string): void;
  findUserById(userId: string): string | null;
  removeUser(userId: string): boolean;
  setUserEnabled(userId: string, enabled: boolean): void;
  endUserSessions(userId: string): number;
  userHasRealmRole(userId: string, role: string): boolean;
  httpResolve(name: string): string | null;
  httpGetAt(url: string, address: string, timeoutMs: number): string;
  probeAllow(): string;
  auditRetentionDays(): string;
  httpPostJson(url: string, body: string, timeoutMs: number): string;
  sessionServicePost(path: string, body: string, timeoutMs: number): string;
  serviceCall(service: string, method: string, path: string, body: string | null, timeoutMs: number): string;
  modelFiles(): string;
  modelRead(file: string): string | null;
  modelWrite(file: string, content: string): boolean;
  assetManifest(): string | null;
  newUuid(): string;
  nowMs(): number;
  log(level: string, message: string): void;
  /** Hands over an asynchronous reply. */
  complete(replyJson: string): void;
}

const orUndefined = <T>(value: T | null): T | undefined => value ?? undefined;
const user = (json: string | null): AdminUser | undefined => (json === null ? undefined : (JSON.parse(json) as AdminUser));

export function adaptAdminHost(raw: JavaAdminHost): AdminHost {
  const auth = raw.authJson();
  return {
    request: {
      method: raw.method(),
      path: raw.path(),
      body: orUndefined(raw.body()),
      header: (name) => orUndefined(raw.header(name)),
      query: (name) => orUndefined(raw.query(name)),
      token: auth === null ? undefined : (JSON.parse(auth) as VerifiedToken),
    },
    realm: { name: raw.realmName(), emailAsUsername: raw.realmEmailAsUsername() },
    store: {
      get: (key) => orUndefined(raw.storeGet(key)),
      put: (key, value) => raw.storePut(key, value),
      claim: (key, value) => raw.storeClaim(key, value),
      remove: (key) => raw.storeRemove(key),
      list: (prefix) => JSON.parse(raw.storeList(prefix)) as Record<string, string>,
    },
    users: {
      findByKeys: (keys) => JSON.parse(raw.findUsersByKeys(JSON.stringify(keys))) as AdminUser[],
      findByAttribute: (name, value, max) => JSON.parse(raw.findUsersByAttribute(name, value, max)) as AdminUser[],
      create: (username, email, attributes) => {
        const created = user(raw.createUser(username, email ?? null, JSON.stringify(attributes)));
        if (created === undefined) throw new Error(`Keycloak created no user ${username}`);
        return created;
      },
      get: (id) => user(raw.findUserById(id)),
      remove: (id) => raw.removeUser(id),
      setAttributes: (id, attributes) => raw.setUserAttributes(id, JSON.stringify(attributes)),
      setEnabled: (id, enabled) => raw.setUserEnabled(id, enabled),
      endSessions: (id) => raw.endUserSessions(id),
      hasRealmRole: (id, role) => raw.userHasRealmRole(id, role),
    },
    crypto: {
      seal: (plain) => raw.seal(plain),
      newSealedKey: () => raw.newSealedKey(),
      hmac: (key, text) => orUndefined(raw.hmac(key, text)),
      hmacOverBody: (key, prefix) => orUndefined(raw.hmacOverBody(key, prefix)),
      voucherHashHex: (data) => raw.voucherHashHex(data),
    },
    memory: {
      append: (ring, entry, capacity) => raw.ringAppend(ring, entry, capacity),
      read: (ring, limit) => JSON.parse(raw.ringRead(ring, limit)) as unknown[],
    },
    once: {
      seen: (key) => raw.onceSeen(key),
      rememberOnCommit: (key, ttlSeconds) => raw.onceRememberOnCommit(key, ttlSeconds),
    },
    testHarness: raw.testHarness(),
    probeAllow: raw.probeAllow(),
    auditRetentionDays: raw.auditRetentionDays(),
    http: {
      resolve: (name) => {
        const found = raw.httpResolve(name);
        return found === null ? undefined : (JSON.parse(found) as string[]);
      },
      getAt: (url, address, timeoutMs) => JSON.parse(raw.httpGetAt(url, address, timeoutMs)) as GetResult,
      postJson: (url, body, timeoutMs) => JSON.parse(raw.httpPostJson(url, body, timeoutMs)) as PostResult,
      postToSessions: (path, body, timeoutMs) => JSON.parse(raw.sessionServicePost(path, body, timeoutMs)) as PostResult,
      service: (service, method, path, body, timeoutMs) => JSON.parse(raw.serviceCall(service, method, path, body ?? null, timeoutMs)) as PostResult,
    },
    models: {
      list: () => JSON.parse(raw.modelFiles()) as string[],
      read: (file) => orUndefined(raw.modelRead(file)),
      write: (file, content) => raw.modelWrite(file, content),
    },
    assets: { manifestJson: () => orUndefined(raw.assetManifest()) },
    newUuid: () => raw.newUuid(),
    nowMs: () => raw.nowMs(),
    log: (level, message) => raw.log(level, message),
  };
}

export const replyToJava = (reply: AdminReply): string => JSON.stringify(reply);
