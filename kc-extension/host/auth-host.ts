/**
 * The typed facade the employee authenticator is written against. The wrapper's Java objects
 * are adapted to it in java-auth-host.ts; unit tests pass a fake with the same shape.
 */

import type { VoucherAttribute } from '../voucher-auth/voucher-state.js';

export interface TokenRequest {
  /** A decoded form field of the token request, or undefined when absent. */
  formParam(name: string): string | undefined;
  header(name: string): string | undefined;
  /**
   * The client's address as Keycloak sees it: the peer of the connection, or the address a proxy
   * Keycloak trusts forwarded (Keycloak's proxy-headers and proxy-trusted-addresses options).
   */
  clientAddress(): string | undefined;
}

export type HttpReply = { kind: 'response'; status: number; body: string } | { kind: 'timeout' } | { kind: 'unreachable' };

export interface HttpPort {
  /** POSTs `body` as JSON; never throws, transport faults come back as values. */
  postJson(url: string, headers: Record<string, string>, body: unknown, timeoutMs: number): HttpReply;
  /** POSTs flat text fields form-encoded (`application/x-www-form-urlencoded`); never throws. */
  postForm(url: string, headers: Record<string, string>, fields: Record<string, string>, timeoutMs: number): HttpReply;
}

/**
 * Fields as `application/x-www-form-urlencoded` (the WHATWG form encoding: UTF-8, space as `+`).
 * Written here because GraalJS has no URLSearchParams.
 */
export function formEncode(fields: Record<string, string>): string {
  const encode = (text: string) =>
    encodeURIComponent(text)
      .replace(/[!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
      .replace(/%20/g, '+');
  return Object.entries(fields)
    .map(([name, value]) => `${encode(name)}=${encode(value)}`)
    .join('&');
}

/** The attributes the employee flow reads and writes (they become token claims). */
export type EmploymentAttribute = 'user_type' | 'employee_verified' | 'employee_ref' | 'company' | 'wifi_eligible';

/** The attributes the flows read and write: the employee flow's, the phone flow's verified number, a voucher's state. */
export type AccountAttribute = EmploymentAttribute | 'phone_number' | 'phone_number_verified' | VoucherAttribute;

export interface UserView {
  id: string;
  username: string;
  enabled: boolean;
  /** The user has a password of its own: someone can sign in to it without HR. */
  hasPassword: boolean;
  attributes: Partial<Record<AccountAttribute, string>>;
}

export interface UserStore {
  findByAttribute(name: string, value: string): UserView[];
  findByUsername(username: string): UserView | undefined;
  create(username: string): UserView;
  setAttributes(userId: string, attributes: Partial<Record<AccountAttribute, string>>): void;
}

/** Short-lived entries shared by every node (Keycloak's single-use object store). */
export interface CounterStore {
  /** Creates the entry for `ttlSeconds` unless it exists, atomically: true when this call created it. */
  claim(key: string, ttlSeconds: number): boolean;
  /** Whether the entry lives now; takes nothing. */
  exists(key: string): boolean;
  remove(key: string): void;
}

/** Short-lived values in the same store (the phone flow's code hashes). */
export interface ValueStore {
  /** Stores `value` under `key` for `ttlSeconds`, replacing what was there. */
  put(key: string, ttlSeconds: number, value: string): void;
  get(key: string): string | undefined;
  /** Removes the entry and returns its value, atomically: of two parallel takes one gets it. */
  take(key: string): string | undefined;
}

export interface Log {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export interface AuthHost {
  request: TokenRequest;
  /** The authenticator config (admin console); empty when none is attached. */
  config: Record<string, string>;
  http: HttpPort;
  users: UserStore;
  counters: CounterStore;
  values: ValueStore;
  /** Lower-case hex HMAC-SHA256 of `data` (UTF-8) under `key` (UTF-8). */
  hmacHex(key: string, data: string): string;
  /** The same under Keycloak's WIFI_VOUCHER_HASH_KEY, which svc-admin hashes new codes with too. */
  voucherHashHex(data: string): string;
  log: Log;
  /** Adds a detail to Keycloak's login event for this request. */
  eventDetail(key: string, value: string): void;
  newUuid(): string;
  nowMs(): number;
}

export interface RefusalBody {
  error: string;
  error_description: string;
  /** The phone flow's code_sent: how long the code lives and when another may be asked for. */
  expires_in?: number;
  resend_after?: number;
}

/** What the authenticator decided; the wrapper turns it into context.success()/failure(). */
export type AuthOutcome =
  | { type: 'success'; userId: string }
  | { type: 'failure'; status: number; flowError: FlowError; eventError: string; body: RefusalBody };

/** The subset of Keycloak's AuthenticationFlowError the authenticator uses. */
export type FlowError = 'INVALID_CREDENTIALS' | 'ACCESS_DENIED' | 'USER_DISABLED' | 'USER_TEMPORARILY_DISABLED' | 'INTERNAL_ERROR';
