import type { UserStore, UserView } from '../host/auth-host.js';

export type AccountOutcome = { kind: 'linked'; user: UserView } | { kind: 'disabled'; user: UserView } | { kind: 'conflict'; reason: string };

/**
 * Finds the account carrying `employee_ref`, or creates `emp-<employeeId>` when none does.
 * More than one carrier is IDENTITY_LINK_CONFLICT (spec 7): the flow refuses to guess. So is a
 * carrier with a password of its own: whoever set that password could sign in to the account
 * the employee's HR check verifies (an address registered ahead of the employee, linked by
 * email), so the flow does not adopt it; an operator checks whose it is.
 */
export function findOrCreateAccount(users: UserStore, employeeId: string, employeeRef: string): AccountOutcome {
  const carriers = users.findByAttribute('employee_ref', employeeRef);
  if (carriers.length > 1) return { kind: 'conflict', reason: `${carriers.length} users carry the reference` };
  const [carrier] = carriers;
  if (carrier?.hasPassword === true) return { kind: 'conflict', reason: `account ${carrier.username} carries the reference and has a password of its own` };
  if (carrier !== undefined) return carrier.enabled ? { kind: 'linked', user: carrier } : { kind: 'disabled', user: carrier };
  const username = `emp-${employeeId.toLowerCase()}`;
  const namesake = users.findByUsername(username);
  if (namesake !== undefined) {
    return { kind: 'conflict', reason: `username ${username} is taken by an account with another reference` };
  }
  return { kind: 'linked', user: users.create(username) };
}
