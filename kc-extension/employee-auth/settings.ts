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

/** Undefined when the config is unusable: the authenticator then fails closed. */
export function readSettings(config: Record<string, string>): EmployeeAuthSettings | undefined {
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
    return undefined;
  }
  return { hrUrl, hrApiKey, hrTimeoutMs, hrAttempts, submitLimit, submitWindowSeconds };
}
