import type { AdminContext } from './context.js';
import { AdminError } from './wire-error.js';

const REQUIRED_CLIENT = 'realm-management';
const REQUIRED_ROLE = 'manage-users';

/**
 * spec 5: `/api/*` needs a bearer token of this realm whose user holds realm-management/manage-users.
 * Keycloak verifies signature, expiry and issuer against the request's realm (so a master-realm
 * token arrives here as no token); the realm is checked again here so the rule lives in one place.
 * As Keycloak's own admin API does, the role is looked up on the user (or service account) at
 * every call, composites and groups included, not read from the token's claims: a token of
 * `admin-cli` carries no role claims, and a role removed takes effect at once.
 */
export function authorize(context: AdminContext): void {
  const token = context.host.request.token;
  if (token === undefined || token.realm !== context.host.realm.name) {
    throw new AdminError('UNAUTHORIZED', 'A valid bearer token of this realm is required.');
  }
  if (!context.host.users.hasClientRole(token.subject, REQUIRED_CLIENT, REQUIRED_ROLE)) {
    throw new AdminError('FORBIDDEN', 'The token\'s user lacks realm-management/manage-users.');
  }
}

/** Who made the change, for `updatedBy` (spec 2.10). */
export const actorOf = (context: AdminContext): string => {
  const token = context.host.request.token;
  return token?.username ?? token?.clientId ?? token?.subject ?? 'unknown';
};
