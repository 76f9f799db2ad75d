/**
 * Helpers for end-to-end tests against a running Keycloak (IDP_URL) and HR (HR_URL). The test
 * runner starts both once per run (scripts/kc.sh start --fresh); unreachable means failure.
 */
export const IDP_URL = process.env['IDP_URL'] ?? 'http://localhost:8080';
export const HR_URL = process.env['HR_URL'] ?? 'http://localhost:3001';
export const TOKEN_URL = `${IDP_URL}/realms/wifi/protocol/openid-connect/token`;

// Dev defaults from realm-export.json (docs/operate/keycloak.md, the realm's clients).
export const PORTAL_API = { id: 'wifi-portal-api', secret: process.env['WIFI_PORTAL_API_SECRET'] ?? 'dev-portal-api-secret' };
export const EMPLOYEE_API = {
  id: 'wifi-portal-employee-api',
  secret: process.env['WIFI_PORTAL_EMPLOYEE_API_SECRET'] ?? 'dev-portal-employee-api-secret',
};

export const PHONE_API = { id: 'wifi-portal-phone-api', secret: process.env['WIFI_PORTAL_PHONE_API_SECRET'] ?? 'dev-portal-phone-api-secret' };
export const VOUCHER_API = { id: 'wifi-portal-voucher-api', secret: process.env['WIFI_PORTAL_VOUCHER_API_SECRET'] ?? 'dev-portal-voucher-api-secret' };
export const SMS_URL = process.env['SMS_URL'] ?? 'http://127.0.0.1:8026';

export interface TokenReply {
  status: number;
  body: Record<string, unknown>;
  text: string;
}

export async function tokenRequest(form: Record<string, string>, headers: Record<string, string> = {}): Promise<TokenReply> {
  const response = await fetch(TOKEN_URL, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form),
  });
  const text = await response.text();
  return { status: response.status, text, body: JSON.parse(text) as Record<string, unknown> };
}

/**
 * A test address of its own in 10.0.0.0/8, sent as X-Forwarded-For, which Keycloak believes from
 * loopback (scripts/kc.sh). Private, because the realm's sslRequired=external refuses plain HTTP
 * ("HTTPS required") from a public address.
 */
export const testAddress = (): string => `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 254)}`;

/**
 * An employee grant straight at Keycloak. Each comes from an address of its own unless the
 * headers name one, so the authenticator's per-address limit (address-limit.test.ts) does not
 * couple unrelated tests that all run on loopback.
 */
export const employeeGrant = (employeeId: string, citizenId: string, headers: Record<string, string> = {}): Promise<TokenReply> =>
  tokenRequest(
    { grant_type: 'password', client_id: EMPLOYEE_API.id, client_secret: EMPLOYEE_API.secret, scope: 'openid', employeeId, citizenId },
    { 'X-Forwarded-For': testAddress(), ...headers },
  );

/** A phone grant straight at Keycloak: `phone` alone asks for a code, with `code` it signs in. */
export const phoneGrant = (fields: { phone: string; code?: string }, headers: Record<string, string> = {}): Promise<TokenReply> =>
  tokenRequest(
    { grant_type: 'password', client_id: PHONE_API.id, client_secret: PHONE_API.secret, scope: 'openid', ...fields },
    { 'X-Forwarded-For': testAddress(), ...headers },
  );

/** A voucher grant straight at Keycloak, from an address of its own unless the headers name one. */
export const voucherGrant = (code: string, headers: Record<string, string> = {}): Promise<TokenReply> =>
  tokenRequest(
    { grant_type: 'password', client_id: VOUCHER_API.id, client_secret: VOUCHER_API.secret, scope: 'openid', code },
    { 'X-Forwarded-For': testAddress(), ...headers },
  );

/** A random Vietnamese mobile number in E.164, so runs and tests never share one. */
export const randomPhone = (): string => `+849${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;

/** The code in the newest text message to `phone` at the SMS catcher, once one is there. */
export async function lastSmsCode(phone: string): Promise<string | undefined> {
  const reply = await fetch(`${SMS_URL}/api/v1/messages?to=${encodeURIComponent(phone)}`);
  const { messages } = (await reply.json()) as { messages: Array<{ text: string }> };
  return /\b(\d{6})\b/.exec(messages[0]?.text ?? '')?.[1];
}

export async function smsFault(mode: 'none' | 'unavailable' | 'timeout', delayMs = 0): Promise<void> {
  const reply = await fetch(`${SMS_URL}/admin/fault`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ mode, delayMs }),
  });
  if (!reply.ok) throw new Error(`SMS catcher fault answered ${reply.status}`);
}

export const customerGrant = (username: string, password: string): Promise<TokenReply> =>
  tokenRequest({ grant_type: 'password', client_id: PORTAL_API.id, client_secret: PORTAL_API.secret, scope: 'openid', username, password });

export const clientCredentialsGrant = (): Promise<TokenReply> =>
  tokenRequest({ grant_type: 'client_credentials', client_id: PORTAL_API.id, client_secret: PORTAL_API.secret });

export function jwtClaims(token: unknown): Record<string, unknown> {
  const payload = String(token).split('.')[1] ?? '';
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
}

async function hrPost(path: string, body?: unknown): Promise<void> {
  const response = await fetch(`${HR_URL}${path}`, {
    method: 'POST',
    // The harness routes need a key with scope harness: the tools' key has it.
    headers: { 'Content-Type': 'application/json', 'X-API-Key': process.env['HR_TOOLS_KEY'] ?? 'dev-hr-tools-key' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`HR ${path} answered ${response.status}: is HR running with TEST_HARNESS=true?`);
}

/** HR verify called directly (not through Keycloak), to tell HR's answers from the authenticator's. */
export async function hrVerify(employeeId: string, citizenId: string): Promise<TokenReply> {
  const response = await fetch(`${HR_URL}/api/v1/employees/verify`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-API-Key': process.env['HR_TOOLS_KEY'] ?? 'dev-hr-tools-key' },
    body: JSON.stringify({ employeeId, citizenId }),
  });
  const text = await response.text();
  return { status: response.status, text, body: JSON.parse(text) as Record<string, unknown> };
}

export const hrFault = (mode: 'none' | 'timeout' | 'unavailable', delayMs = 0): Promise<void> => hrPost('/admin/fault', { mode, delayMs });
export const hrResetLimits = (): Promise<void> => hrPost('/admin/reset-limits');

/** Throws (failing the run) when Keycloak's realm or HR does not answer. */
export async function requireServices(): Promise<void> {
  const realm = await fetch(`${IDP_URL}/realms/wifi`).catch((error: unknown) => {
    throw new Error(`Keycloak is unreachable at ${IDP_URL}: ${String(error)}`);
  });
  if (!realm.ok) throw new Error(`Keycloak realm wifi answered ${realm.status} at ${IDP_URL}`);
  const hr = await fetch(`${HR_URL}/health`).catch((error: unknown) => {
    throw new Error(`HR is unreachable at ${HR_URL}: ${String(error)}`);
  });
  if (!hr.ok) throw new Error(`HR health answered ${hr.status} at ${HR_URL}`);
}

export const randomEmployeeId = (prefix: string): string => `${prefix}-${Math.random().toString(36).slice(2, 10)}`;

/** A master-realm admin token (development bootstrap admin of scripts/kc.sh). */
export async function adminToken(): Promise<string> {
  const response = await fetch(`${IDP_URL}/realms/master/protocol/openid-connect/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'password',
      client_id: 'admin-cli',
      username: process.env['KC_BOOTSTRAP_ADMIN_USERNAME'] ?? 'admin',
      password: process.env['KC_BOOTSTRAP_ADMIN_PASSWORD'] ?? 'admin',
    }),
  });
  if (!response.ok) throw new Error(`admin token: ${response.status}`);
  return String(((await response.json()) as Record<string, unknown>)['access_token']);
}

/** Admin REST call on realm `wifi`; answers the parsed JSON body (undefined when empty). */
export async function adminApi(token: string, method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${IDP_URL}/admin/realms/wifi${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`admin ${method} ${path}: ${response.status}`);
  const text = await response.text();
  return text === '' ? undefined : (JSON.parse(text) as unknown);
}

export async function userIdOf(token: string, username: string): Promise<string> {
  const users = (await adminApi(token, 'GET', `/users?exact=true&username=${encodeURIComponent(username)}`)) as { id: string }[];
  const id = users[0]?.id;
  if (id === undefined) throw new Error(`no user ${username}`);
  return id;
}

/** Keycloak's brute-force record of a user: failures so far, held or not, last failure (ms). */
export interface BruteForceStatus {
  numFailures: number;
  disabled: boolean;
  lastFailure: number;
}

export const bruteForceStatus = async (token: string, userId: string): Promise<BruteForceStatus> =>
  (await adminApi(token, 'GET', `/attack-detection/brute-force/users/${userId}`)) as BruteForceStatus;

export const clearBruteForce = async (token: string, userId: string): Promise<void> => {
  await adminApi(token, 'DELETE', `/attack-detection/brute-force/users/${userId}`);
};
