import type { AdminUser, AdminUsers } from '../host/admin-host.js';

/** The keys an import row can match on (spec 3.4). */
export interface RowKeys {
  cccdLink: string | undefined;
  employeeRef: string | undefined;
  email: string | undefined;
  /** The username a CREATE would take. */
  username: string;
}

/**
 * Every user an import can match, fetched once for the whole file: the host answers one bulk
 * look-up (a few `IN (...)` queries) instead of four queries per row, and nothing is queried
 * between the writes of a commit. A commit records what it writes, so later rows of the same
 * file see the accounts earlier rows created or linked.
 */
export interface UserIndex {
  /** Every user carrying the value, in the order the host gave them. */
  carrying(attribute: 'cccd_link' | 'employee_ref', value: string): AdminUser[];
  byEmail(email: string): AdminUser | undefined;
  byUsername(username: string): AdminUser | undefined;
  record(user: AdminUser): void;
}

const INDEXED = ['cccd_link', 'employee_ref'] as const;

export function loadUserIndex(users: AdminUsers, rows: RowKeys[]): UserIndex {
  const values = (pick: (row: RowKeys) => string | undefined): string[] => [...new Set(rows.map(pick).filter((value): value is string => value !== undefined))];
  const found = users.findByKeys({
    attributes: { cccd_link: values((row) => row.cccdLink), employee_ref: values((row) => row.employeeRef) },
    usernames: values((row) => row.username),
    emails: values((row) => row.email),
  });

  const byId = new Map<string, AdminUser>();
  const holders = new Map<string, string[]>();
  const byEmail = new Map<string, string>();
  const byUsername = new Map<string, string>();
  const key = (attribute: string, value: string): string => `${attribute}\u0000${value}`;
  const record = (user: AdminUser): void => {
    byId.set(user.id, user);
    for (const attribute of INDEXED) {
      const value = user.attributes[attribute];
      if (value === undefined) continue;
      const ids = holders.get(key(attribute, value)) ?? [];
      if (!ids.includes(user.id)) holders.set(key(attribute, value), [...ids, user.id]);
    }
    if (user.email !== undefined && !byEmail.has(user.email)) byEmail.set(user.email, user.id);
    if (!byUsername.has(user.username)) byUsername.set(user.username, user.id);
  };
  found.forEach(record);
  const user = (id: string | undefined): AdminUser | undefined => (id === undefined ? undefined : byId.get(id));

  return {
    carrying: (attribute, value) => (holders.get(key(attribute, value)) ?? []).flatMap((id) => byId.get(id) ?? []),
    byEmail: (email) => user(byEmail.get(email)),
    byUsername: (username) => user(byUsername.get(username)),
    record,
  };
}
