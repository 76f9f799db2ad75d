import { normalizeVoucherCode, VOUCHER_USERNAME_PREFIX, voucherHashInput } from '../../contract/voucher.js';
import { correlationId } from '../employee-auth/correlation.js';
import { createSlotLimit } from '../employee-auth/submit-limit.js';
import type { AuthHost, AuthOutcome } from '../host/auth-host.js';
import { refuseVoucher } from './refusals.js';
import { readVoucherSettings } from './settings.js';
import { voucherState } from './voucher-state.js';

/** How long a sign-in's claim of a use slot is remembered: longer than any one token request. */
const USE_CLAIM_SECONDS = 300;

/**
 * The voucher direct-grant authenticator: `code` signs in as the voucher's own user, whose
 * username is `voucher-` and the code's keyed hash (WIFI_VOUCHER_HASH_KEY, computed by Java), so
 * neither Keycloak's store nor its logs hold a code. The first sign-in starts the voucher's
 * duration; each takes one of its slots. A code that is malformed, unknown, not yet or no longer
 * valid, revoked or used up is the one `invalid_grant`; tries are limited per client address.
 */
export function authenticateVoucher(host: AuthHost): AuthOutcome {
  const corr = correlationId(host.request, () => host.newUuid());
  host.eventDetail('correlation_id', corr);
  const read = readVoucherSettings(host.config);
  if (!read.ok) {
    host.log.error(`voucher authenticator misconfigured: unusable settings ${read.unusable.join(', ')}; fix the execution's config correlation_id=${corr}`);
    return refuseVoucher('authenticator_misconfigured');
  }
  const { settings } = read;
  const address = host.request.clientAddress() ?? 'unknown';
  if (createSlotLimit(host.counters, 'wifi-voucher-attempt-address', settings.attemptLimit, settings.attemptWindowSeconds).take(address) === undefined) {
    host.log.warn(`voucher sign-ins per client address reached correlation_id=${corr}`);
    return refuseVoucher('rate_limited');
  }
  const code = normalizeVoucherCode(host.request.formParam('code') ?? '');
  if (code === undefined) return refuseVoucher('invalid_grant');
  const voucher = host.users.findByUsername(`${VOUCHER_USERNAME_PREFIX}${host.voucherHashHex(voucherHashInput(code))}`);
  if (voucher === undefined || !voucher.enabled) return refuseVoucher('invalid_grant');
  const now = host.nowMs();
  const state = voucherState(voucher.attributes, now);
  if (state !== 'UNUSED' && state !== 'ACTIVE') return refuseVoucher('invalid_grant');
  // Two sign-ins racing for the last slot: only the one that claims the slot's number goes on.
  const uses = Number(voucher.attributes.voucher_uses ?? '0');
  if (!host.counters.claim(`wifi-voucher-use:${voucher.id}:${uses + 1}`, USE_CLAIM_SECONDS)) return refuseVoucher('invalid_grant');
  host.users.setAttributes(voucher.id, {
    voucher_uses: String(uses + 1),
    ...(voucher.attributes.voucher_first_use === undefined ? { voucher_first_use: new Date(now).toISOString() } : {}),
  });
  host.log.info(`voucher sign-in user_id=${voucher.id} correlation_id=${corr}`);
  return { type: 'success', userId: voucher.id };
}
