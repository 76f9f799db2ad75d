/**
 * The voucher authenticator's settings, edited as its execution's config in the admin console;
 * this table is the one source. The code hash key is not here: svc-admin, which makes the codes,
 * hashes with the same key, so it is Keycloak's run-time setting WIFI_VOUCHER_HASH_KEY, read by
 * Java for both (docs/decisions/0072-vouchers-are-keycloak-users.md).
 */
export const VOUCHER_SETTINGS = [
  {
    name: 'attemptLimit',
    label: 'Sign-ins per client address',
    help: 'Voucher codes tried from one client address within the attempt window (guessing codes stops here)',
    kind: 'int',
    default: '10',
    min: 1,
    max: 1_000_000,
  },
  {
    name: 'attemptWindowSeconds',
    label: 'Attempt window (s)',
    help: 'Window of the per-address limit',
    kind: 'int',
    default: '60',
    min: 1,
    max: 86_400,
  },
] as const;

export type VoucherSettingName = (typeof VOUCHER_SETTINGS)[number]['name'];

export interface VoucherAuthSettings {
  attemptLimit: number;
  attemptWindowSeconds: number;
}

export type VoucherSettingsOutcome = { ok: true; settings: VoucherAuthSettings } | { ok: false; unusable: VoucherSettingName[] };

/** The settings, or the names of the unusable ones: the authenticator then fails closed. */
export function readVoucherSettings(config: Record<string, string>): VoucherSettingsOutcome {
  const values: Record<string, number> = {};
  const unusable: VoucherSettingName[] = [];
  for (const setting of VOUCHER_SETTINGS) {
    const raw = config[setting.name];
    const value = raw === undefined || raw.trim() === '' ? Number(setting.default) : Number(raw);
    if (Number.isInteger(value) && value >= setting.min && value <= setting.max) values[setting.name] = value;
    else unusable.push(setting.name);
  }
  return unusable.length > 0 ? { ok: false, unusable } : { ok: true, settings: values as unknown as VoucherAuthSettings };
}
