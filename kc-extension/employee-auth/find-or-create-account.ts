import type { UserStore, UserView } from '../host/auth-host.js';

export type AccountOutcome =
  | { kind: 'linked'; user: UserView }
  | { kind: 'disabled'; user: UserView }
  | { kind: 'conflict'; reason: string };

/**
 * Finds the account carrying `employee_ref`, or creates `emp-<employeeId>` when none does.
 * More than one carrier is IDENTITY_LINK_CONFLICT (spec 7): the flow refuses to guess.
 */
export function findOrCreateAccount(users: UserStore, employeeId: string, employeeRef: string): AccountOutcome {
  const carriers = users.findByAttribute('employee_ref', employeeRef);
  if (carriers.length > 1) return { kind: 'conflict', reason: `${carriers.length} users carry the reference` };
  const [carrier] = carriers;
  if (carrier !== undefined) return carrier.enabled ? { kind: 'linked', user: carrier } : { kind: 'disabled', user: carrier };
  const username = `emp-${employeeId.toLowerCase()}`;
  const namesake = users.findByUsername(username);
  if (namesake !== undefined) {
    return { kind: 'conflict', reason: `username ${username} is taken by an account with another reference` };
  }
  return { kind: 'linked', user: users.create(username) };
}
