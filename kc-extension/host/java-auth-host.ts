import { type AuthHost, type AuthOutcome, formEncode, type HttpReply, type UserView } from './auth-host.js';

/**
 * The raw Java object the wrapper hands in (spi-wrapper AuthHostFacade). Structured values
 * cross the border as JSON strings; only this folder knows that.
 */
export interface JavaAuthHost {
  formParam(name: string): string | null;
  header(name: string): string | null;
  clientAddress(): string | null;
  configJson(): string;
  newUuid(): string;
  nowMs(): number;
  log(level: string, message: string): void;
  eventDetail(key: string, value: string): void;
  httpPostJson(url: string, headersJson: string, body: string, timeoutMs: number): string;
  findUsersByAttribute(name: string, value: string): string;
  findUserByUsername(username: string): string | null;
  createUser(username: string): string;
  setUserAttributes(userId: string, attributesJson: string): void;
  counterClaim(key: string, ttlSeconds: number): boolean;
  counterExists(key: string): boolean;
  counterRemove(key: string): void;
  valuePut(key: string, ttlSeconds: number, value: string): void;
  valueGet(key: string): string | null;
  valueTake(key: string): string | null;
  hmacSha256Hex(key: string, data: string): string;
  voucherHashHex(data: string): string;
}

interface JavaUser {
  id: string;
  username: string;
  enabled: boolean;
  hasPassword?: boolean;
  attributes: Record<string, string | null>;
}

interface JavaHttpReply {
  status?: number;
  body?: string;
  failure?: 'timeout' | 'unreachable';
}

const toUser = (user: JavaUser): UserView => ({
  id: user.id,
  username: user.username,
  enabled: user.enabled,
  // Fail closed: a view without the flag is not taken for an account nobody can sign in to.
  hasPassword: user.hasPassword !== false,
  attributes: Object.fromEntries(Object.entries(user.attributes).filter(([, value]) => value !== null)) as UserView['attributes'],
});

const toHttpReply = (reply: JavaHttpReply): HttpReply =>
  reply.failure !== undefined ? { kind: reply.failure } : { kind: 'response', status: reply.status ?? 0, body: reply.body ?? '' };

/** Wraps the Java facade in the typed AuthHost. */
export function adaptAuthHost(raw: JavaAuthHost): AuthHost {
  return {
    request: {
      formParam: (name) => raw.formParam(name) ?? undefined,
      header: (name) => raw.header(name) ?? undefined,
      clientAddress: () => raw.clientAddress() ?? undefined,
    },
    config: JSON.parse(raw.configJson()) as Record<string, string>,
    http: {
      postJson: (url, headers, body, timeoutMs) =>
        toHttpReply(JSON.parse(raw.httpPostJson(url, JSON.stringify(headers), JSON.stringify(body), timeoutMs)) as JavaHttpReply),
      // The Java call sends the text as given; a Content-Type of the caller's replaces its JSON one.
      postForm: (url, headers, fields, timeoutMs) =>
        toHttpReply(
          JSON.parse(
            raw.httpPostJson(url, JSON.stringify({ ...headers, 'Content-Type': 'application/x-www-form-urlencoded' }), formEncode(fields), timeoutMs),
          ) as JavaHttpReply,
        ),
    },
    users: {
      findByAttribute: (name, value) => (JSON.parse(raw.findUsersByAttribute(name, value)) as JavaUser[]).map(toUser),
      findByUsername: (username) => {
        const found = raw.findUserByUsername(username);
        return found === null ? undefined : toUser(JSON.parse(found) as JavaUser);
      },
      create: (username) => toUser(JSON.parse(raw.createUser(username)) as JavaUser),
      setAttributes: (userId, attributes) => raw.setUserAttributes(userId, JSON.stringify(attributes)),
    },
    counters: {
      claim: (key, ttlSeconds) => raw.counterClaim(key, ttlSeconds),
      exists: (key) => raw.counterExists(key),
      remove: (key) => raw.counterRemove(key),
    },
    values: {
      put: (key, ttlSeconds, value) => raw.valuePut(key, ttlSeconds, value),
      get: (key) => raw.valueGet(key) ?? undefined,
      take: (key) => raw.valueTake(key) ?? undefined,
    },
    hmacHex: (key, data) => raw.hmacSha256Hex(key, data),
    voucherHashHex: (data) => raw.voucherHashHex(data),
    log: {
      info: (message) => raw.log('info', message),
      warn: (message) => raw.log('warn', message),
      error: (message) => raw.log('error', message),
    },
    eventDetail: (key, value) => raw.eventDetail(key, value),
    newUuid: () => raw.newUuid(),
    nowMs: () => raw.nowMs(),
  };
}

export const outcomeToJava = (outcome: AuthOutcome): string => JSON.stringify(outcome);
