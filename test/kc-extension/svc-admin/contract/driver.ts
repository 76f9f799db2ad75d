/**
 * What a contract test needs from a host: the in-memory one (unit) or a real Keycloak (e2e).
 * The same cases run on both so the two hosts cannot drift.
 */
export interface DriverRequest {
  method: string;
  path: string;
  token?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  query?: Record<string, string>;
}

export interface DriverReply {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

export interface EmployeeState {
  enabled: boolean;
  attributes: Record<string, string | undefined>;
}

export interface Driver {
  send(request: DriverRequest): Promise<DriverReply>;
  /**
   * realm token of a user holding the realm role `svc-admin`; customer token; master-realm admin
   * token; the portal's service-account token (client credentials of `wifi-portal-api`, which
   * holds realm-management/manage-users but is no svc-admin operator: issue 29 item 1).
   */
  tokens: { operator: string; customer: string; master: string; portal: string };
  /** Server clock in ms (webhook timestamps are checked against it). */
  nowMs(): number;
  /** A user carrying `employee_ref` and `company`; answers its id. */
  createEmployee(employeeRef: string, company: string): Promise<string>;
  /** A user with this email (verified or not), with or without a password of its own; answers its id. */
  createAccount(email: string, options: { emailVerified: boolean; password: boolean }): Promise<string>;
  employee(id: string): Promise<EmployeeState>;
  /** An HTTP origin whose /health answers 200, and one that refuses connections. */
  healthyOrigin: string;
  deadOrigin: string;
  /** Points the module at a decision service (realm setting svc-admin.decisionUrl). */
  setDecisionUrl(url: string): Promise<void>;
  /** The decision service the module reloads by default. */
  decisionUrl: string;
}
