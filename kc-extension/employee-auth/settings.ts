/** Authenticator settings, edited as the execution's config in the admin console (spec 8). */
export interface EmployeeAuthSettings {
  hrUrl: string;
  hrApiKey: string;
  hrTimeoutMs: number;
  hrAttempts: number;
  submitLimit: number;
  submitWindowSeconds: number;
}

const DEFAULTS = { hrTimeoutMs: 3000, hrAttempts: 2, submitLimit: 5, submitWindowSeconds: 900 };

function intSetting(raw: string | undefined, fallback: number, min: number, max: number): number | undefined {
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  return Number.isInteger(value) && value >= min && value <= max ? value : undefined;
}

export type SettingsOutcome = { ok: true; settings: EmployeeAuthSettings } | { ok: false; unusable: string[] };

/** The settings, or the names (never the values) of those that are unusable: the authenticator then fails closed. */
export function readSettings(config: Record<string, string>): SettingsOutcome {
  const hrUrl = config['hrUrl']?.trim().replace(/\/+$/, '');
  const hrApiKey = config['hrApiKey'];
  const hrTimeoutMs = intSetting(config['hrTimeoutMs'], DEFAULTS.hrTimeoutMs, 100, 60_000);
  const hrAttempts = intSetting(config['hrAttempts'], DEFAULTS.hrAttempts, 1, 5);
  const submitLimit = intSetting(config['submitLimit'], DEFAULTS.submitLimit, 1, 1000);
  const submitWindowSeconds = intSetting(config['submitWindowSeconds'], DEFAULTS.submitWindowSeconds, 1, 86_400);
  if (
    hrUrl === undefined || !/^https?:\/\/\S+$/.test(hrUrl) || hrApiKey === undefined || hrApiKey === '' ||
    hrTimeoutMs === undefined || hrAttempts === undefined || submitLimit === undefined || submitWindowSeconds === undefined
  ) {
    const checks: Array<[string, boolean]> = [
      ['hrUrl', hrUrl !== undefined && /^https?:\/\/\S+$/.test(hrUrl)],
      ['hrApiKey', hrApiKey !== undefined && hrApiKey !== ''],
      ['hrTimeoutMs', hrTimeoutMs !== undefined],
      ['hrAttempts', hrAttempts !== undefined],
      ['submitLimit', submitLimit !== undefined],
      ['submitWindowSeconds', submitWindowSeconds !== undefined],
    ];
    return { ok: false, unusable: checks.filter(([, usable]) => !usable).map(([name]) => name) };
  }
  return { ok: true, settings: { hrUrl, hrApiKey, hrTimeoutMs, hrAttempts, submitLimit, submitWindowSeconds } };
}
