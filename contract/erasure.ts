/**
 * The order of a person's erasure, written once for both callers: the portal (the signed-in
 * person) and svc-admin (an operator's erasure inside Keycloak). Each caller brings its own way
 * of reaching the stores (the portal over fetch and Keycloak's admin API, svc-admin through the
 * Java host); the order and the refusals live here.
 *
 * 1. The account is held (disabled, its Keycloak sessions ended), so a deletion that stops
 *    part-way never leaves an account that looks whole, and can no longer sign in.
 * 2. The person's network session ids are listed; 3. the gateway erases their traces (it goes
 *    before the session service: once anonymised, sessions can no longer be listed by subject);
 * 4. the session service; 5. the entitlement service; 6. the Keycloak user is removed.
 * Every step is idempotent, so `incomplete` is answered by running the same erasure again.
 */

/** What holding the account found: `gone` when an earlier run removed it already (the rest still runs). */
export type ErasureHold = 'held' | 'gone' | 'employee' | 'voucher' | 'unreachable';

export type Maybe<T> = T | Promise<T>;

export interface ErasureSteps {
  /** Refuses (employee, voucher) before anything changes, else disables the account and ends its Keycloak sessions. */
  hold(subjectId: string): Maybe<ErasureHold>;
  /** The person's network session ids; undefined when the session service did not answer. */
  listSessionIds(subjectId: string): Maybe<string[] | undefined>;
  eraseConnections(sessionIds: readonly string[]): Maybe<boolean>;
  eraseSessions(subjectId: string): Maybe<boolean>;
  eraseEntitlements(subjectId: string): Maybe<boolean>;
  /** True also when the account was gone already. */
  removeAccount(subjectId: string): Maybe<boolean>;
}

/**
 * `employee`: an imported employee's account, which its company's HR process ends;
 * `voucher`: a voucher's account, shared by the guests its slots admit and revoked by the venue.
 */
export type ErasureOutcome = 'erased' | 'employee' | 'voucher' | 'incomplete';

/** Runs the erasure's steps in their order; stops at the first that fails (nothing after it runs). */
export async function eraseSubjectEverywhere(subjectId: string, steps: ErasureSteps): Promise<ErasureOutcome> {
  const held = await steps.hold(subjectId);
  if (held === 'employee' || held === 'voucher') return held;
  if (held === 'unreachable') return 'incomplete';
  const sessionIds = await steps.listSessionIds(subjectId);
  if (sessionIds === undefined) return 'incomplete';
  if (!(await steps.eraseConnections(sessionIds))) return 'incomplete';
  if (!(await steps.eraseSessions(subjectId))) return 'incomplete';
  if (!(await steps.eraseEntitlements(subjectId))) return 'incomplete';
  if (!(await steps.removeAccount(subjectId))) return 'incomplete';
  return 'erased';
}

/** An account HR's import made (employee reference or employee type): its company's HR process owns it. */
export function isImportedEmployee(attributes: Record<string, unknown> | undefined): boolean {
  return attributeValues(attributes, 'employee_ref').some((value) => value !== '') || attributeValues(attributes, 'user_type').includes('EMPLOYEE');
}

/** A voucher's account: the venue's, shared by the guests its slots admit, holding no personal data of its own. */
export function isVoucherAccount(attributes: Record<string, unknown> | undefined): boolean {
  return attributeValues(attributes, 'user_type').includes('VOUCHER');
}

// Keycloak's admin API answers attribute lists, svc-admin's host first values: both read here.
function attributeValues(attributes: Record<string, unknown> | undefined, name: string): string[] {
  const value = attributes?.[name];
  if (Array.isArray(value)) return value.map(String);
  return value === undefined || value === null ? [] : [String(value)];
}
