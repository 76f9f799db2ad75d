import type { AdminUser } from '../host/admin-host.js';
import type { AdminContext, RouteResult } from './context.js';
import { isoNow, ok } from './context.js';
import { readCompany } from './company-store.js';
import { logEvent } from './event-log.js';
import { decide, newUsername, writesNothing, type Decision, type PreparedRow } from './import-match.js';
import { loadUserIndex } from './import-index.js';
import { CITIZEN_ID, IMPORT_ACTIONS, ImportRequest, ImportRow, MAX_IMPORT_ROWS, type ImportOutcome } from './import-schemas.js';
import { describeIssue, readBody } from './read-body.js';
import { AdminError } from './wire-error.js';

/** The per-realm HMAC salt of citizen numbers: created once (at the first commit), sealed, never returned. */
const SALT_KEY = 'cccd-salt';

/**
 * POST /api/import?mode=preview|commit (spec 4.7 rules 1-4). Every row is validated and hashed
 * before anything is written; a bad row is a 400 naming its line. Commit runs in the request's
 * single Keycloak transaction: if anything fails midway the host rolls the whole request back,
 * so an import is written completely or not at all.
 */
export function importRoute(context: AdminContext): RouteResult {
  const mode = context.host.request.query('mode') ?? 'preview';
  if (mode !== 'preview' && mode !== 'commit') throw new AdminError('INVALID_REQUEST', 'mode: must be preview or commit');
  const request = readBody(context, ImportRequest);
  if (readCompany(context.host.store, request.company) === undefined) throw new AdminError('INVALID_REQUEST', 'company: no company has that code');
  if (request.rows.length < 1 || request.rows.length > MAX_IMPORT_ROWS) {
    throw new AdminError('INVALID_REQUEST', `rows: must hold 1 to ${MAX_IMPORT_ROWS} rows`);
  }
  const salt = saltFor(context, mode === 'commit');
  const rows = request.rows.map((raw, index) => prepare(context, raw, index + 1, salt));

  const importedAt = isoNow(context);
  const index = loadUserIndex(context.host.users, rows);
  const outcomes: ImportOutcome[] = rows.map((row) => {
    const decision = decide(index, row);
    if (mode === 'commit' && !writesNothing(decision.outcome.action)) index.record(write(context, row, decision, { company: request.company, importedAt }));
    return decision.outcome;
  });

  const counts = Object.fromEntries(IMPORT_ACTIONS.map((action) => [action, outcomes.filter((o) => o.action === action).length]));
  const MODE = mode === 'commit' ? 'COMMIT' : 'PREVIEW';
  logEvent(context, {
    company: request.company,
    type: `IMPORT_${MODE}`,
    outcome: 'DONE',
    detail: `${rows.length} rows`,
    payload: { total: rows.length, counts },
  });
  return ok({ mode: MODE, company: request.company, total: rows.length, counts, outcomes });
}

/** Writes one row (spec 4.7 rule 2) and answers the account as it now is. */
function write(context: AdminContext, row: PreparedRow, decision: Decision, stamp: { company: string; importedAt: string }): AdminUser {
  const attributes: Record<string, string> = { user_type: 'EMPLOYEE', company: stamp.company, imported_at: stamp.importedAt };
  if (row.employeeRef !== undefined) attributes['employee_ref'] = row.employeeRef;
  if (row.cccdLink !== undefined) attributes['cccd_link'] = row.cccdLink;
  if (decision.user === undefined) {
    const { username } = decision.outcome;
    if (username === undefined) throw new Error('a CREATE decision names the username it takes');
    return context.host.users.create(username, row.email, attributes);
  }
  context.host.users.setAttributes(decision.user.id, attributes);
  return { ...decision.user, attributes: { ...decision.user.attributes, ...attributes } };
}

/**
 * The salt, or undefined in a preview before the first commit (then no user can carry a link
 * yet). Created once per realm by a claim committed at once: commits starting together on a
 * realm without a salt all hash with the one salt that won, and a long commit can never
 * overwrite a salt others have used since it began.
 */
function saltFor(context: AdminContext, create: boolean): string | undefined {
  const existing = context.host.store.get(SALT_KEY);
  if (existing !== undefined || !create) return existing;
  return context.host.store.claim(SALT_KEY, context.host.crypto.newSealedKey());
}

/** Validates one row and replaces its citizen number by the link at once (spec 4.7 rule 2). */
function prepare(context: AdminContext, raw: unknown, line: number, salt: string | undefined): PreparedRow {
  const parsed = ImportRow.safeParse(raw);
  if (!parsed.success) throw new AdminError('INVALID_REQUEST', `line ${line}: ${describeIssue(parsed.error.issues[0])}`);
  const { employeeId, citizenId, email } = parsed.data;
  if (employeeId === undefined && email === undefined) throw new AdminError('INVALID_REQUEST', `line ${line}: needs employeeId or email`);
  const hashable = citizenId !== undefined && CITIZEN_ID.test(citizenId);
  const cccdLink = hashable && salt !== undefined ? context.host.crypto.hmac(salt, citizenId) : undefined;
  const lowerEmail = email?.toLowerCase();
  return { line, employeeRef: employeeId, email: lowerEmail, cccdLink, username: newUsername(context.host.realm.emailAsUsername, employeeId, lowerEmail) };
}
