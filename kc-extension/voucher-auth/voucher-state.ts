import type { AccountAttribute } from '../host/auth-host.js';

/**
 * A voucher as its Keycloak user carries it. One reading, used by the authenticator (may it sign
 * in now?) and by svc-admin (what the list shows), so the two cannot disagree on "used up".
 */
export const VOUCHER_ATTRIBUTES = [
  'voucher_batch',
  'voucher_valid_from',
  'voucher_valid_until',
  'voucher_duration_seconds',
  'voucher_device_slots',
  'voucher_shared',
  'voucher_first_use',
  'voucher_uses',
  'voucher_revoked',
] as const;
export type VoucherAttribute = (typeof VOUCHER_ATTRIBUTES)[number];

export type VoucherState = 'UNUSED' | 'ACTIVE' | 'USED_UP' | 'EXPIRED' | 'NOT_YET_VALID' | 'REVOKED' | 'INVALID';

type Attributes = Partial<Record<AccountAttribute | VoucherAttribute, string | undefined>>;

const integer = (value: string | undefined): number | undefined => {
  const number = Number(value);
  return value !== undefined && value !== '' && Number.isInteger(number) && number >= 0 ? number : undefined;
};
const instant = (value: string | undefined): number | undefined => {
  const ms = value === undefined ? Number.NaN : Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
};

/** How many sign-ins a voucher allows: one when single use, its device slots when shared. */
export const signInsAllowed = (shared: boolean, deviceSlots: number): number => (shared ? deviceSlots : 1);

/**
 * The voucher's state at `nowMs`. A voucher lasts from its first sign-in for its duration, and
 * never past its valid-until; each sign-in takes one of its slots. Anything unreadable is INVALID
 * (fails closed: it signs nobody in).
 */
export function voucherState(attributes: Attributes, nowMs: number): VoucherState {
  if (attributes.user_type !== 'VOUCHER') return 'INVALID';
  const from = instant(attributes.voucher_valid_from);
  const until = instant(attributes.voucher_valid_until);
  const duration = integer(attributes.voucher_duration_seconds);
  const slots = integer(attributes.voucher_device_slots);
  const uses = integer(attributes.voucher_uses ?? '0');
  if (from === undefined || until === undefined || duration === undefined || slots === undefined || uses === undefined) return 'INVALID';
  if (attributes.voucher_revoked === 'true') return 'REVOKED';
  if (nowMs < from) return 'NOT_YET_VALID';
  if (nowMs >= until) return 'EXPIRED';
  const firstUse = instant(attributes.voucher_first_use);
  if (firstUse !== undefined && nowMs >= firstUse + duration * 1000) return 'EXPIRED';
  if (uses >= signInsAllowed(attributes.voucher_shared === 'true', slots)) return 'USED_UP';
  return firstUse === undefined ? 'UNUSED' : 'ACTIVE';
}
