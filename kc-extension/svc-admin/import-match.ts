import type { AdminHost, AdminUser } from '../host/admin-host.js';
import type { ImportAction, ImportOutcome } from './import-schemas.js';

/** A validated row after hashing: the raw citizen number is already gone (spec 4.7 rule 2). */
export interface PreparedRow {
  line: number;
  employeeRef: string | undefined;
  email: string | undefined;
  cccdLink: string | undefined;
}

export interface Decision {
  outcome: ImportOutcome;
  /** The user to link, or undefined for CREATE / CONFLICT. */
  user: AdminUser | undefined;
}

const single = (users: AdminUser[]): AdminUser | undefined => users[0];

/**
 * spec 3.4 match order: CCCD link, employee_ref, email, create. A match whose user carries a
 * different reference (or a different CCCD link) is a CONFLICT naming the existing reference;
 * nothing is overwritten (spec 4.7 rule 4).
 */
export function decide(host: AdminHost, row: PreparedRow): Decision {
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

  const byCccd = row.cccdLink === undefined ? undefined : single(host.users.findByAttribute('cccd_link', row.cccdLink, 1));
  if (byCccd !== undefined) {
    if (otherRef(byCccd)) return conflict(byCccd, `citizen number is linked to employee_ref ${byCccd.attributes['employee_ref']}`);
    return linked('LINK_BY_CCCD', byCccd);
  }
  const byRef = row.employeeRef === undefined ? undefined : single(host.users.findByAttribute('employee_ref', row.employeeRef, 1));
  if (byRef !== undefined) {
    if (otherLink(byRef)) return conflict(byRef, `employee_ref ${row.employeeRef} is linked to another citizen number`);
    return linked('LINK_BY_EMPLOYEE_REF', byRef);
  }
  const byEmail = row.email === undefined ? undefined : host.users.findByEmail(row.email);
  if (byEmail !== undefined) {
    if (otherRef(byEmail)) return conflict(byEmail, `email belongs to employee_ref ${byEmail.attributes['employee_ref']}`);
    if (otherLink(byEmail)) return conflict(byEmail, 'email belongs to an account linked to another citizen number');
    return linked('LINK_BY_EMAIL', byEmail, 'matched by email only: flagged for review');
  }
  const username = newUsername(host, row);
  const taken = host.users.findByUsername(username);
  if (taken !== undefined) return conflict(taken, `username ${taken.username} is held by an account with employee_ref ${taken.attributes['employee_ref'] ?? '(none)'}`);
  return { outcome: { ...base, action: 'CREATE', username }, user: undefined };
}

/** spec 4.7 rule 3: `emp-<number>`, or the email where the realm uses email as username. */
export function newUsername(host: AdminHost, row: PreparedRow): string {
  if ((host.realm.emailAsUsername || row.employeeRef === undefined) && row.email !== undefined) return row.email.toLowerCase();
  return `emp-${row.employeeRef!.toLowerCase()}`;
}
