import type { AdminUser } from '../host/admin-host.js';
import type { UserIndex } from './import-index.js';
import type { ImportAction, ImportOutcome } from './import-schemas.js';

/** A validated row after hashing: the raw citizen number is already gone (spec 4.7 rule 2). */
export interface PreparedRow {
  line: number;
  employeeRef: string | undefined;
  email: string | undefined;
  cccdLink: string | undefined;
  /** The username a CREATE takes (spec 4.7 rule 3). */
  username: string;
}

export interface Decision {
  outcome: ImportOutcome;
  /** The user to link, or undefined for CREATE and for the outcomes that write nothing. */
  user: AdminUser | undefined;
}

/** Outcomes an operator settles by hand: a commit writes nothing for them. */
const WRITES_NOTHING: ReadonlySet<ImportAction> = new Set(['CONFLICT', 'REVIEW_EMAIL_MATCH']);
export const writesNothing = (action: ImportAction): boolean => WRITES_NOTHING.has(action);

/**
 * Why an account matched by email alone must not be linked, or undefined when it may. Anyone can
 * register an address before its owner joins a member company: linking that account would hand
 * the employee's claims to whoever holds its password. Only an account whose owner proved the
 * address and that nobody can sign in to with a password of its own is linked.
 */
function emailLinkRefusal(user: AdminUser): string | undefined {
  if (user.hasPassword) return 'the account has a password of its own';
  if (!user.emailVerified) return 'the account has not verified the address';
  return undefined;
}

/**
 * spec 3.4 match order: CCCD link, employee_ref, email, create. An email match links only an
 * account the address's owner holds alone (emailLinkRefusal); any other is REVIEW_EMAIL_MATCH. A match whose user carries a
 * different reference (or a different CCCD link) is a CONFLICT naming the existing reference;
 * nothing is overwritten (spec 4.7 rule 4). So is a key carried by several accounts, or a CCCD
 * link and a reference held by two different accounts (spec 7 CONFLICT: more than one user
 * matches): linking would leave two accounts with one `employee_ref`, which the employee flow
 * refuses as IDENTITY_LINK_CONFLICT.
 */
export function decide(index: UserIndex, row: PreparedRow): Decision {
  const base = { line: row.line, ...(row.employeeRef && { employeeRef: row.employeeRef }), ...(row.email && { email: row.email }) };
  const linked = (action: ImportAction, user: AdminUser, note?: string): Decision => ({
    outcome: { ...base, action, username: user.username, matchedUserId: user.id, ...(note && { note }) },
    user,
  });
  const conflict = (user: AdminUser, note: string): Decision => ({
    outcome: { ...base, action: 'CONFLICT', username: user.username, matchedUserId: user.id, note },
    user: undefined,
  });
  const otherRef = (user: AdminUser): boolean => {
    const existing = user.attributes['employee_ref'];
    return existing !== undefined && row.employeeRef !== undefined && existing !== row.employeeRef;
  };
  const otherLink = (user: AdminUser): boolean => {
    const existing = user.attributes['cccd_link'];
    return existing !== undefined && row.cccdLink !== undefined && existing !== row.cccdLink;
  };

  const linkedUsers = row.cccdLink === undefined ? [] : index.carrying('cccd_link', row.cccdLink);
  const refUsers = row.employeeRef === undefined ? [] : index.carrying('employee_ref', row.employeeRef);
  const [byCccd] = linkedUsers;
  const [byRef] = refUsers;
  if (byCccd !== undefined && linkedUsers.length > 1) return conflict(byCccd, `citizen number is linked to ${linkedUsers.length} accounts`);
  if (byRef !== undefined && refUsers.length > 1) return conflict(byRef, `employee_ref ${row.employeeRef} is carried by ${refUsers.length} accounts`);
  if (byCccd !== undefined) {
    if (otherRef(byCccd)) return conflict(byCccd, `citizen number is linked to employee_ref ${byCccd.attributes['employee_ref']}`);
    if (byRef !== undefined && byRef.id !== byCccd.id)
      return conflict(byCccd, `citizen number and employee_ref ${row.employeeRef} belong to different accounts`);
    return linked('LINK_BY_CCCD', byCccd);
  }
  if (byRef !== undefined) {
    if (otherLink(byRef)) return conflict(byRef, `employee_ref ${row.employeeRef} is linked to another citizen number`);
    return linked('LINK_BY_EMPLOYEE_REF', byRef);
  }
  const byEmail = row.email === undefined ? undefined : index.byEmail(row.email);
  if (byEmail !== undefined) {
    if (otherRef(byEmail)) return conflict(byEmail, `email belongs to employee_ref ${byEmail.attributes['employee_ref']}`);
    if (otherLink(byEmail)) return conflict(byEmail, 'email belongs to an account linked to another citizen number');
    const refusal = emailLinkRefusal(byEmail);
    if (refusal !== undefined) {
      return {
        outcome: {
          ...base,
          action: 'REVIEW_EMAIL_MATCH',
          username: byEmail.username,
          matchedUserId: byEmail.id,
          note: `matched by email only and ${refusal}: nothing written; link by hand once its owner is known`,
        },
        user: undefined,
      };
    }
    return linked('LINK_BY_EMAIL', byEmail, 'matched by email only: flagged for review');
  }
  const taken = index.byUsername(row.username);
  if (taken !== undefined)
    return conflict(taken, `username ${taken.username} is held by an account with employee_ref ${taken.attributes['employee_ref'] ?? '(none)'}`);
  return { outcome: { ...base, action: 'CREATE', username: row.username }, user: undefined };
}

/** spec 4.7 rule 3: `emp-<number>`, or the email where the realm uses email as username. */
export function newUsername(emailAsUsername: boolean, employeeRef: string | undefined, email: string | undefined): string {
  if ((emailAsUsername || employeeRef === undefined) && email !== undefined) return email.toLowerCase();
  if (employeeRef === undefined) throw new Error('the row check gives every row an employee_ref or an email');
  return `emp-${employeeRef.toLowerCase()}`;
}
