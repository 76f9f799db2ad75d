import type { AdminContext } from './context.js';
import { AdminError } from './wire-error.js';

/**
 * The realm role an svc-admin operator holds. A role of its own, not
 * realm-management/manage-users: the portal's service account needs manage-users to create
 * customer accounts, and whoever holds the internet-facing portal's client secret must not be
 * able to replace the entitlement DMN, set company webhook secrets or run imports.
 */
export const OPERATOR_ROLE = 'svc-admin';

/**
 * spec 5: `/api/*` needs a bearer token of this realm whose user holds the operator role.
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
  if (!context.host.users.hasRealmRole(token.subject, OPERATOR_ROLE)) {
    throw new AdminError('FORBIDDEN', `The token's user lacks the realm role ${OPERATOR_ROLE}.`);
  }
}

/**
 * The realm role of the portal's service account that lets its purge job record the erasures it
 * makes (`POST /api/audit/retention`) and nothing else: the portal's secret must not open
 * operators' routes.
 */
export const RETENTION_ROLE = 'svc-admin-retention';

/** The retention job's one route: a token of this realm whose user holds RETENTION_ROLE. */
export function authorizeRetention(context: AdminContext): void {
  const token = context.host.request.token;
  if (token === undefined || token.realm !== context.host.realm.name) {
    throw new AdminError('UNAUTHORIZED', 'A valid bearer token of this realm is required.');
  }
  if (!context.host.users.hasRealmRole(token.subject, RETENTION_ROLE)) {
    throw new AdminError('FORBIDDEN', `The token's user lacks the realm role ${RETENTION_ROLE}.`);
  }
}

/** Who made the change, for `updatedBy` (spec 2.10). */
export const actorOf = (context: AdminContext): string => {
  const token = context.host.request.token;
  return token?.username ?? token?.clientId ?? token?.subject ?? 'unknown';
};
