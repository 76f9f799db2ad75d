import { actorOf } from './authorize.js';
import { CompanyInput, COMPANY_CODE, type StoredCompany } from './company-schemas.js';
import { listCompanies, readCompany, removeCompany, writeCompany } from './company-store.js';
import { isoNow, ok, type AdminContext, type RouteResult } from './context.js';
import { readBody } from './read-body.js';
import { AdminError } from './wire-error.js';

export const publicCompany = ({ sealedSecret, ...company }: StoredCompany): Omit<StoredCompany, 'sealedSecret'> & { hasSecret: boolean } => ({
  ...company,
  hasSecret: sealedSecret !== undefined,
});

export function requireCode(code: string): string {
  if (!COMPANY_CODE.test(code)) throw new AdminError('INVALID_REQUEST', 'code: must match ^[A-Z0-9-]{2,24}$');
  return code;
}

export const listRoute = (context: AdminContext): RouteResult => ok({ companies: listCompanies(context.host.store).map(publicCompany) });

/** spec 4.7 rule 5: full replace; a supplied secret replaces the stored one, an omitted one keeps it. */
export function putRoute(context: AdminContext, code: string): RouteResult {
  requireCode(code);
  const { secret, ...input }: CompanyInput = readBody(context, CompanyInput);
  const sealedSecret = secret !== undefined ? context.host.crypto.seal(secret) : readCompany(context.host.store, code)?.sealedSecret;
  const company: StoredCompany = { code, ...input, updatedAt: isoNow(context), updatedBy: actorOf(context) };
  writeCompany(context.host.store, sealedSecret === undefined ? company : { ...company, sealedSecret });
  return ok({ saved: true, code });
}

/** spec 4.7 rule 6: configuration and secret go; users stay. */
export function deleteRoute(context: AdminContext, code: string): RouteResult {
  requireCode(code);
  const existed = readCompany(context.host.store, code) !== undefined;
  if (existed) removeCompany(context.host.store, code);
  return ok({ removed: existed, code });
}

export function requireCompany(context: AdminContext, code: string): StoredCompany {
  const company = readCompany(context.host.store, requireCode(code));
  if (company === undefined) throw new AdminError('NOT_FOUND', 'No company has that code.');
  return company;
}
