/**
 * The facade the member-company module (svc-admin) is written against. spi-wrapper's
 * AdminHostFacade implements it inside Keycloak (java-admin-host.ts adapts it); tests use an
 * in-memory implementation. No rule of the spec lives behind it: it moves data only.
 */

/** The bearer token as verified by Keycloak against this request's realm. */
export interface VerifiedToken {
  realm: string;
  /** The id of the token's user (a service account's too), as Keycloak found it. */
  subject: string;
  username: string | undefined;
  clientId: string | undefined;
}

/** One request to /realms/{realm}/svc-admin, as the module's router sees it. */
export interface AdminRequest {
  method: string;
  /** Path below the module base, starting with '/'. */
  path: string;
  /** Body decoded as UTF-8; the raw bytes stay in the host (see AdminCrypto.hmacOverBody). */
  body: string | undefined;
  header(name: string): string | undefined;
  query(name: string): string | undefined;
  /** undefined when there is no token, or it is bad, expired or from another realm. */
  token: VerifiedToken | undefined;
}

export interface AdminReply {
  status: number;
  contentType: string;
  body: string;
  headers?: Record<string, string>;
  /** Ask the host to roll back everything this request wrote to Keycloak. */
  rollback?: boolean;
  /** `headers` hold a complete set of security headers: the host must not add or replace any (Keycloak's realm defaults). */
  ownSecurityHeaders?: boolean;
  /** Answer with this file of the GUI's assets (packed in the extension jar) instead of `body`. */
  asset?: string;
}

/** The GUI's built files travel in the extension jar; the module decides which names it serves. */
export interface GuiAssets {
  /** `manifest.json` written by svc-admin/gui/bundle.ts; undefined when the jar has no GUI. */
  manifestJson(): string | undefined;
}

export interface AdminUser {
  id: string;
  username: string;
  email: string | undefined;
  /** The user proved the address (Keycloak's emailVerified). */
  emailVerified: boolean;
  enabled: boolean;
  /** The user has a password of its own: someone can sign in to it without HR. */
  hasPassword: boolean;
  attributes: Record<string, string | undefined>;
}

/** Keys looked up at once (usernames and emails as Keycloak stores them: lower-case). */
export interface UserKeys {
  /** attribute name to the values wanted */
  attributes: Record<string, string[]>;
  usernames: string[];
  emails: string[];
}

export interface AdminUsers {
  /** Every user carrying any of the keys, each once, in no set order (a few bulk queries). */
  findByKeys(keys: UserKeys): AdminUser[];
  findByAttribute(name: string, value: string, max: number): AdminUser[];
  create(username: string, email: string | undefined, attributes: Record<string, string>): AdminUser;
  /** The user, or undefined when there is none. */
  get(userId: string): AdminUser | undefined;
  /** Removes the user; true also when there was none. */
  remove(userId: string): boolean;
  setAttributes(userId: string, attributes: Record<string, string>): void;
  setEnabled(userId: string, enabled: boolean): void;
  /** Ends every online and offline session of the user; answers how many. */
  endSessions(userId: string): number;
  /**
   * Whether the user (a service account too) holds the realm role now: mapped directly, through
   * a composite role or through a group. False for an unknown user or role.
   */
  hasRealmRole(userId: string, role: string): boolean;
}

/** Realm-scoped key/value storage kept by Keycloak with the realm (realm attributes). */
export interface RealmStore {
  get(key: string): string | undefined;
  put(key: string, value: string): void;
  /**
   * Stores the value unless the key already holds one, committed at once whatever happens to
   * the request, and answers the value that holds: of requests claiming together, one wins and
   * all use its value (create-once values such as the citizen-number salt).
   */
  claim(key: string, value: string): string;
  remove(key: string): void;
  /** Every key starting with the prefix. */
  list(prefix: string): Record<string, string>;
}

/** Secrets are sealed by the host; sealed values never come back in clear. */
export interface AdminCrypto {
  seal(plain: string): string;
  newSealedKey(): string;
  /** base64 HMAC-SHA256 keyed by a sealed value; undefined when the sealed value is unreadable. */
  hmac(sealedKey: string, text: string): string | undefined;
  /** The same over `prefix` followed by the request's raw body bytes. */
  hmacOverBody(sealedKey: string, prefix: string): string | undefined;
  /** Lower-case hex HMAC-SHA256 under Keycloak's WIFI_VOUCHER_HASH_KEY: the voucher authenticator finds codes with the same key. */
  voucherHashHex(data: string): string;
}

/** Node-local memory shared by all script contexts of this realm; lost on restart. */
export interface AdminMemory {
  append(ring: string, entryJson: string, capacity: number): void;
  /** Newest first. */
  read(ring: string, limit: number): unknown[];
}

/**
 * Keys remembered for a while by the whole Keycloak cluster (Keycloak's SingleUseObjectProvider):
 * what one node remembered, every node sees. Keys are per realm.
 */
export interface ClusterOnce {
  /** True while the key is remembered (on any node). */
  seen(key: string): boolean;
  /**
   * Remembers the key for `ttlSeconds` once this request's Keycloak transaction has committed;
   * never when it rolls back or its commit fails.
   */
  rememberOnCommit(key: string, ttlSeconds: number): void;
}

export type GetResult = { status: number } | { failure: 'timeout' | 'unreachable' };
export type PostResult = { status: number; body: string } | { failure: 'timeout' | 'unreachable' };

/** The platform services svc-admin reads and erases a person's records at. */
export type PlatformService = 'session' | 'gateway' | 'entitlement' | 'portal';

export interface AdminHttp {
  /** The addresses a host name (or address literal) resolves to; undefined when it does not resolve. */
  resolve(name: string): string[] | undefined;
  /** One GET of `url` sent to `address` (the URL's host name still names the server: Host, TLS); redirects are not followed. */
  getAt(url: string, address: string, timeoutMs: number): GetResult;
  postJson(url: string, body: string, timeoutMs: number): PostResult;
  /**
   * A POST to the platform's session service: its address and API key are this
   * Keycloak's run-time settings (env SESSION_URL, SESSION_API_KEY), never realm data or script values.
   */
  postToSessions(path: string, body: string, timeoutMs: number): PostResult;
  /**
   * A GET or POST to a platform service: its address and Keycloak's key there are run-time
   * settings (env `SESSION_URL`/`SESSION_API_KEY`, `GATEWAY_URL`/`SVC_ADMIN_GATEWAY_KEY`,
   * `ENTITLEMENT_URL`/`SVC_ADMIN_ENTITLEMENT_KEY`, `PORTAL_URL`/`SVC_ADMIN_PORTAL_KEY`), never realm data or script values.
   */
  service(service: PlatformService, method: 'GET' | 'POST', path: string, body: string | undefined, timeoutMs: number): PostResult;
}

/** The decision models folder (Keycloak's run-time setting DMN_DIR, not realm data). */
export interface ModelFolder {
  list(): string[];
  read(file: string): string | undefined;
  /** Atomic replace; false when the file name is not allowed or the write failed. */
  write(file: string, content: string): boolean;
}

export interface AdminHost {
  request: AdminRequest;
  realm: { name: string; emailAsUsername: boolean };
  store: RealmStore;
  users: AdminUsers;
  crypto: AdminCrypto;
  memory: AdminMemory;
  once: ClusterOnce;
  http: AdminHttp;
  models: ModelFolder;
  assets: GuiAssets;
  /**
   * Keycloak's environment has TEST_HARNESS=true (the test run's Keycloak): test-only switches may
   * be honoured. A production start refuses it (kc-extension/start-check.ts).
   */
  testHarness: boolean;
  /** Keycloak's SVC_ADMIN_AUDIT_RETENTION_DAYS as set ('' when unset): days the audit of operators' access keeps an entry. */
  auditRetentionDays: string;
  /** Keycloak's SVC_ADMIN_PROBE_ALLOW: address ranges the connector probe may reach although internal (empty: none). */
  probeAllow: string;
  newUuid(): string;
  nowMs(): number;
  log(level: 'error' | 'warn' | 'info' | 'debug', message: string): void;
}
