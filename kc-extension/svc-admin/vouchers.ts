import { formatVoucherCode, normalizeVoucherCode, VOUCHER_USERNAME_PREFIX, voucherCodeFromHex, voucherHashInput } from '../../contract/voucher.js';
import type { AdminUser } from '../host/admin-host.js';
import { signInsAllowed, voucherState, type VoucherState } from '../voucher-auth/voucher-state.js';
import { actorOf } from './authorize.js';
import { isoNow, ok, type AdminContext, type RouteResult } from './context.js';
import { readBody } from './read-body.js';
import { BatchInput, RevokeByCode, StoredBatch } from './voucher-schemas.js';
import { voucherCsv, voucherSheet } from './voucher-sheet.js';
import { endNetworkSessions } from './webhook.js';
import { AdminError } from './wire-error.js';

/** Batches live in realm attributes `svc-admin.voucher-batch.<id>`; vouchers are users of the realm. */
const KEY_PREFIX = 'voucher-batch.';
const BATCH_ID = /^vb-[0-9a-f-]{36}$/;

const readBatch = (context: AdminContext, id: string): StoredBatch | undefined => {
  const raw = BATCH_ID.test(id) ? context.host.store.get(KEY_PREFIX + id) : undefined;
  return raw === undefined ? undefined : StoredBatch.parse(JSON.parse(raw));
};
const writeBatch = (context: AdminContext, batch: StoredBatch): void => context.host.store.put(KEY_PREFIX + batch.id, JSON.stringify(batch));

function requireBatch(context: AdminContext, id: string): StoredBatch {
  const batch = readBatch(context, id);
  if (batch === undefined) throw new AdminError('NOT_FOUND', 'No voucher batch has that id.');
  return batch;
}

/** A fresh code: 64 bits of two random UUIDs' first groups (SecureRandom in Keycloak), 60 of them used. */
const newCode = (context: AdminContext): string => voucherCodeFromHex(context.host.newUuid().slice(0, 8) + context.host.newUuid().slice(0, 8));

const usernameOf = (context: AdminContext, code: string): string => `${VOUCHER_USERNAME_PREFIX}${context.host.crypto.voucherHashHex(voucherHashInput(code))}`;

const vouchersOf = (context: AdminContext, batch: StoredBatch): AdminUser[] =>
  context.host.users.findByAttribute('voucher_batch', batch.id, batch.count).filter((user) => user.attributes['user_type'] === 'VOUCHER');

function viewOf(user: AdminUser, nowMs: number) {
  const attributes = user.attributes;
  return {
    id: user.id,
    state: voucherState(attributes, nowMs),
    firstUsedAt: attributes['voucher_first_use'] ?? null,
    signIns: Number(attributes['voucher_uses'] ?? '0'),
    signInsAllowed: signInsAllowed(attributes['voucher_shared'] === 'true', Number(attributes['voucher_device_slots'] ?? '1')),
  };
}

function batchView(context: AdminContext, batch: StoredBatch) {
  const states: Partial<Record<VoucherState, number>> = {};
  for (const user of vouchersOf(context, batch)) {
    const state = voucherState(user.attributes, context.host.nowMs());
    states[state] = (states[state] ?? 0) + 1;
  }
  return { ...batch, states };
}

/**
 * POST /api/vouchers/batches: makes `count` vouchers, each a user of the realm named by its code's
 * keyed hash, and answers the codes this once: as JSON, or (`?format=csv`, `?format=html`) as the
 * file to download or the sheet to print. No later answer holds a code; a lost code is a lost voucher.
 */
export function createBatchRoute(context: AdminContext): RouteResult {
  const format = context.host.request.query('format') ?? 'json';
  if (format !== 'json' && format !== 'csv' && format !== 'html') throw new AdminError('INVALID_REQUEST', 'format: must be json, csv or html');
  const input = readBody(context, BatchInput);
  const batch: StoredBatch = {
    id: `vb-${context.host.newUuid()}`,
    count: input.count,
    validFrom: new Date(input.validFrom === undefined ? context.host.nowMs() : Date.parse(input.validFrom)).toISOString(),
    validUntil: new Date(Date.parse(input.validUntil)).toISOString(),
    durationMinutes: input.durationMinutes,
    deviceSlots: input.shared ? input.deviceSlots : 1,
    shared: input.shared,
    note: input.note,
    createdAt: isoNow(context),
    createdBy: actorOf(context),
  };
  const codes: string[] = [];
  for (let made = 0; made < batch.count; made++) {
    const code = newCode(context);
    context.host.users.create(usernameOf(context, code), undefined, {
      user_type: 'VOUCHER',
      voucher_batch: batch.id,
      voucher_valid_from: batch.validFrom,
      voucher_valid_until: batch.validUntil,
      voucher_duration_seconds: String(batch.durationMinutes * 60),
      voucher_device_slots: String(batch.deviceSlots),
      voucher_shared: String(batch.shared),
      voucher_uses: '0',
      voucher_revoked: 'false',
    });
    codes.push(formatVoucherCode(code));
  }
  writeBatch(context, batch);
  context.host.log('info', `voucher batch ${batch.id} created: ${batch.count} vouchers by ${batch.createdBy}`);
  if (format === 'csv') return { status: 201, body: voucherCsv(batch, codes), contentType: 'text/csv; charset=utf-8', filename: `${batch.id}.csv` };
  if (format === 'html') return { status: 201, body: voucherSheet(batch, codes), contentType: 'text/html; charset=utf-8' };
  return { status: 201, body: { batch, codes } };
}

export function listBatchesRoute(context: AdminContext): RouteResult {
  const batches = Object.values(context.host.store.list(KEY_PREFIX))
    .map((raw) => StoredBatch.parse(JSON.parse(raw)))
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  return ok({ batches: batches.map((batch) => batchView(context, batch)) });
}

export function getBatchRoute(context: AdminContext, id: string): RouteResult {
  const batch = requireBatch(context, id);
  const now = context.host.nowMs();
  return ok({ batch: batchView(context, batch), vouchers: vouchersOf(context, batch).map((user) => viewOf(user, now)) });
}

/**
 * A revoked voucher signs nobody in again, and what it opened ends now, as an HR termination
 * ends an employee's: its Keycloak sessions, then its network sessions through the session
 * service's subject revoke (the gateways disconnect the devices from its change feed). Only a
 * voucher that was ever used can hold a session, so only those are sent to the session service.
 */
function revoke(context: AdminContext, user: AdminUser): string | undefined {
  const used = Number(user.attributes['voucher_uses'] ?? '0') > 0;
  if (user.attributes['voucher_revoked'] !== 'true') context.host.users.setAttributes(user.id, { voucher_revoked: 'true' });
  context.host.users.setEnabled(user.id, false);
  if (!used) return undefined;
  context.host.users.endSessions(user.id);
  return endNetworkSessions(context, user.id, 'VOUCHER_REVOKED');
}

const revokedAnswer = (revoked: string[], reviews: string[]): RouteResult =>
  ok({ revoked: revoked.length, voucherIds: revoked, ...(reviews.length === 0 ? {} : { review: reviews[0] }) });

export function revokeBatchRoute(context: AdminContext, id: string): RouteResult {
  const batch = requireBatch(context, id);
  const users = vouchersOf(context, batch);
  const reviews = users.flatMap((user) => revoke(context, user) ?? []);
  writeBatch(context, { ...batch, revokedAt: batch.revokedAt ?? isoNow(context) });
  context.host.log('info', `voucher batch ${batch.id} revoked: ${users.length} vouchers by ${actorOf(context)}`);
  return revokedAnswer(
    users.map((user) => user.id),
    reviews,
  );
}

export function revokeVoucherRoute(context: AdminContext, batchId: string, voucherId: string): RouteResult {
  const batch = requireBatch(context, batchId);
  const user = vouchersOf(context, batch).find((candidate) => candidate.id === voucherId);
  if (user === undefined) throw new AdminError('NOT_FOUND', 'No voucher of this batch has that id.');
  const review = revoke(context, user);
  context.host.log('info', `voucher ${user.id} of batch ${batch.id} revoked by ${actorOf(context)}`);
  return revokedAnswer([user.id], review === undefined ? [] : [review]);
}

/** A lost or misused card, revoked by the code printed on it; an unknown code is 404 (only operators ask). */
export function revokeByCodeRoute(context: AdminContext): RouteResult {
  const code = normalizeVoucherCode(readBody(context, RevokeByCode).code);
  if (code === undefined) throw new AdminError('INVALID_REQUEST', 'code: must be a voucher code (12 letters and digits, dashes and spaces allowed)');
  const [user] = context.host.users
    .findByKeys({ attributes: {}, usernames: [usernameOf(context, code)], emails: [] })
    .filter((candidate) => candidate.attributes['user_type'] === 'VOUCHER');
  if (user === undefined) throw new AdminError('NOT_FOUND', 'No voucher has that code.');
  const review = revoke(context, user);
  context.host.log('info', `voucher ${user.id} revoked by code by ${actorOf(context)}`);
  return revokedAnswer([user.id], review === undefined ? [] : [review]);
}
