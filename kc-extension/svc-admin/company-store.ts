import type { RealmStore } from '../host/admin-host.js';
import { StoredCompany } from './company-schemas.js';

/** Companies live in realm attributes `svc-admin.company.<CODE>` (kept and exported with the realm). */
const KEY_PREFIX = 'company.';

export function readCompany(store: RealmStore, code: string): StoredCompany | undefined {
  const raw = store.get(KEY_PREFIX + code);
  return raw === undefined ? undefined : StoredCompany.parse(JSON.parse(raw));
}

export function listCompanies(store: RealmStore): StoredCompany[] {
  return Object.values(store.list(KEY_PREFIX))
    .map((raw) => StoredCompany.parse(JSON.parse(raw)))
    .sort((a, b) => a.code.localeCompare(b.code));
}

export const writeCompany = (store: RealmStore, company: StoredCompany): void => store.put(KEY_PREFIX + company.code, JSON.stringify(company));

export const removeCompany = (store: RealmStore, code: string): void => store.remove(KEY_PREFIX + code);
