/**
 * The employee authenticator's settings (spec 8), edited as the execution's config in the admin
 * console. This table is the one source: the Java factory's config properties, the realm
 * import's `authenticatorConfig` and the test host are checked against it
 * (test/kc-extension/settings-sources.test.ts), so a renamed setting cannot ship half-renamed.
 */
export const SETTINGS = [
  { name: 'hrUrl', label: 'HR base URL', help: 'Base URL of the HR verification service', kind: 'url', default: 'http://localhost:3001' },
  { name: 'hrApiKey', label: 'HR API key', help: 'Sent as X-API-Key to HR verify', kind: 'secret' },
  { name: 'hrTimeoutMs', label: 'HR timeout (ms)', help: 'Per-attempt timeout of HR verify', kind: 'int', default: '3000', min: 100, max: 60_000 },
  {
    name: 'hrAttempts',
    label: 'HR attempts',
    help: 'Attempts per login (HR verify is read-only, so retry is safe)',
    kind: 'int',
    default: '2',
    min: 1,
    max: 5,
  },
  {
    name: 'submitLimit',
    label: 'Failed submits per employee id',
    help: 'Failed submits allowed per employee id within the window',
    kind: 'int',
    default: '5',
    min: 1,
    max: 1000,
  },
  { name: 'submitWindowSeconds', label: 'Submit window (s)', help: 'Window of the failed-submit limit', kind: 'int', default: '900', min: 1, max: 86_400 },
  {
    name: 'addressLimit',
    label: 'Attempts per client address',
    help: 'Employee sign-in attempts allowed per client address within the window, checked first (the address Keycloak sees: behind a trusted proxy, the forwarded one)',
    kind: 'int',
    default: '30',
    min: 1,
    max: 1_000_000,
  },
  { name: 'addressWindowSeconds', label: 'Address window (s)', help: 'Window of the per-address limit', kind: 'int', default: '60', min: 1, max: 86_400 },
] as const;

export type SettingName = (typeof SETTINGS)[number]['name'];

export interface EmployeeAuthSettings {
  hrUrl: string;
  hrApiKey: string;
  hrTimeoutMs: number;
  hrAttempts: number;
  submitLimit: number;
  submitWindowSeconds: number;
  addressLimit: number;
  addressWindowSeconds: number;
}

export type SettingsOutcome = { ok: true; settings: EmployeeAuthSettings } | { ok: false; unusable: SettingName[] };

type Setting = (typeof SETTINGS)[number];

// Integers fall back to their default when blank; the URL and the key have none at run time
// (the URL's default is only what the admin console proposes).
function readOne(setting: Setting, raw: string | undefined): string | number | undefined {
  switch (setting.kind) {
    case 'url': {
      const url = raw?.trim().replace(/\/+$/, '');
      return url !== undefined && /^https?:\/\/\S+$/.test(url) ? url : undefined;
    }
    case 'secret':
      return raw !== undefined && raw !== '' ? raw : undefined;
    case 'int': {
      if (raw === undefined || raw.trim() === '') return Number(setting.default);
      const value = Number(raw);
      return Number.isInteger(value) && value >= setting.min && value <= setting.max ? value : undefined;
    }
  }
}

/** The settings, or the names (never the values) of those that are unusable: the authenticator then fails closed. */
export function readSettings(config: Record<string, string>): SettingsOutcome {
  const values: Record<string, string | number> = {};
  const unusable: SettingName[] = [];
  for (const setting of SETTINGS) {
    const value = readOne(setting, config[setting.name]);
    if (value === undefined) unusable.push(setting.name);
    else values[setting.name] = value;
  }
  return unusable.length > 0 ? { ok: false, unusable } : { ok: true, settings: values as unknown as EmployeeAuthSettings };
}
