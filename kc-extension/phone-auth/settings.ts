import { DEFAULT_SMS_BODY_TEMPLATE, type HttpSmsSettings, isFlatTextTemplate, parseBodyTemplate } from './http-sms-sender.js';

/**
 * The phone authenticator's settings, edited as its execution's config in the admin console;
 * this table is the one source, as the employee authenticator's is.
 */
export const PHONE_SETTINGS = [
  {
    name: 'codeHashKey',
    label: 'Code hash key',
    help: 'HMAC key the codes and numbers are stored under (a code is kept only as its keyed hash)',
    kind: 'secret',
  },
  { name: 'codeTtlSeconds', label: 'Code lifetime (s)', help: 'How long a code can be used', kind: 'int', default: '300', min: 30, max: 3600 },
  { name: 'codeTries', label: 'Tries per code', help: 'Wrong codes allowed for one issued code; then it is spent', kind: 'int', default: '5', min: 1, max: 20 },
  {
    name: 'resendAfterSeconds',
    label: 'Resend after (s)',
    help: 'Time before another code may be sent to the same number',
    kind: 'int',
    default: '60',
    min: 0,
    max: 3600,
  },
  { name: 'numberLimit', label: 'Codes per number', help: 'Codes sent to one number within the number window', kind: 'int', default: '5', min: 1, max: 1000 },
  { name: 'numberWindowSeconds', label: 'Number window (s)', help: 'Window of the per-number limit', kind: 'int', default: '3600', min: 1, max: 86_400 },
  {
    name: 'addressLimit',
    label: 'Codes per client address',
    help: 'Codes asked for from one client address within the address window',
    kind: 'int',
    default: '10',
    min: 1,
    max: 1_000_000,
  },
  {
    name: 'addressWindowSeconds',
    label: 'Address window (s)',
    help: 'Window of the per-address code limit',
    kind: 'int',
    default: '3600',
    min: 1,
    max: 86_400,
  },
  {
    name: 'attemptLimit',
    label: 'Sign-ins per client address',
    help: 'Code submissions from one client address within the attempt window',
    kind: 'int',
    default: '30',
    min: 1,
    max: 1_000_000,
  },
  {
    name: 'attemptWindowSeconds',
    label: 'Attempt window (s)',
    help: 'Window of the per-address submission limit',
    kind: 'int',
    default: '60',
    min: 1,
    max: 86_400,
  },
  {
    name: 'smsText',
    label: 'SMS text',
    help: 'The message; {{code}} is the code, {{minutes}} its lifetime (GSM-7 letters keep it one segment)',
    kind: 'text',
    default: 'Ma Wi-Fi: {{code}} ({{minutes}} phut). Your Wi-Fi code: {{code}} ({{minutes}} min).',
  },
  { name: 'smsUrl', label: 'SMS gateway URL', help: 'Where a message is POSTed', kind: 'url', default: 'http://localhost:8026/api/v1/sms' },
  { name: 'smsUser', label: 'SMS user', help: 'Account or API key: {{user}} in the body template, the user of HTTP Basic', kind: 'text', default: '' },
  {
    name: 'smsPassword',
    label: 'SMS password',
    help: 'Secret or token: {{password}} in the body template, the password of HTTP Basic',
    kind: 'optionalSecret',
  },
  { name: 'smsBasicAuth', label: 'SMS HTTP Basic', help: 'Send the user and password as HTTP Basic credentials', kind: 'flag', default: 'false' },
  {
    name: 'smsBodyTemplate',
    label: 'SMS body template',
    help: 'JSON body; string values may hold {{to}}, {{toDigits}}, {{toNational}}, {{text}}, {{user}}, {{password}}',
    kind: 'json',
    default: DEFAULT_SMS_BODY_TEMPLATE,
  },
  {
    name: 'smsBodyForm',
    label: 'SMS body as a form',
    help: "Send the body template's fields form-encoded (application/x-www-form-urlencoded, as Twilio-style APIs take them) instead of JSON; the template is then flat text fields",
    kind: 'flag',
    default: 'false',
  },
  { name: 'smsSentMarker', label: 'SMS sent marker', help: 'When set, a 2xx answer counts as sent only when its body contains it', kind: 'text', default: '' },
  { name: 'smsTimeoutMs', label: 'SMS timeout (ms)', help: 'Per-attempt timeout of a send', kind: 'int', default: '3000', min: 100, max: 60_000 },
  {
    name: 'smsAttempts',
    label: 'SMS attempts',
    help: 'Attempts per message (a timeout may then deliver a code twice)',
    kind: 'int',
    default: '2',
    min: 1,
    max: 5,
  },
  {
    name: 'smsBreakerFailures',
    label: 'SMS breaker failures',
    help: 'Failed sends within the breaker window that open the breaker',
    kind: 'int',
    default: '3',
    min: 1,
    max: 100,
  },
  {
    name: 'smsBreakerWindowSeconds',
    label: 'SMS breaker window (s)',
    help: 'Window the failed sends are counted in',
    kind: 'int',
    default: '60',
    min: 1,
    max: 3600,
  },
  {
    name: 'smsBreakerOpenSeconds',
    label: 'SMS breaker open (s)',
    help: 'How long an open breaker refuses at once',
    kind: 'int',
    default: '30',
    min: 1,
    max: 3600,
  },
] as const;

export type PhoneSettingName = (typeof PHONE_SETTINGS)[number]['name'];

export interface PhoneAuthSettings extends HttpSmsSettings {
  codeHashKey: string;
  codeTtlSeconds: number;
  codeTries: number;
  resendAfterSeconds: number;
  numberLimit: number;
  numberWindowSeconds: number;
  addressLimit: number;
  addressWindowSeconds: number;
  attemptLimit: number;
  attemptWindowSeconds: number;
  smsText: string;
}

type Setting = (typeof PHONE_SETTINGS)[number];

function readOne(setting: Setting, raw: string | undefined): string | number | boolean | undefined {
  const given = raw === undefined || raw.trim() === '' ? undefined : raw;
  switch (setting.kind) {
    case 'secret':
      return given;
    case 'optionalSecret':
      return raw ?? '';
    case 'text':
      return raw ?? setting.default;
    case 'url': {
      const url = (given ?? setting.default).trim();
      return /^https?:\/\/\S+$/.test(url) ? url : undefined;
    }
    case 'flag': {
      const value = (given ?? setting.default).trim();
      return value === 'true' ? true : value === 'false' ? false : undefined;
    }
    case 'json': {
      const text = given ?? setting.default;
      try {
        const parsed: unknown = JSON.parse(text);
        return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? text : undefined;
      } catch {
        return undefined;
      }
    }
    case 'int': {
      if (given === undefined) return Number(setting.default);
      const value = Number(given);
      return Number.isInteger(value) && value >= setting.min && value <= setting.max ? value : undefined;
    }
  }
}

export type PhoneSettingsOutcome = { ok: true; settings: PhoneAuthSettings } | { ok: false; unusable: PhoneSettingName[] };

/** The settings, or the names (never the values) of the unusable ones: the authenticator then fails closed. */
export function readPhoneSettings(config: Record<string, string>): PhoneSettingsOutcome {
  const values: Record<string, string | number | boolean> = {};
  const unusable: PhoneSettingName[] = [];
  for (const setting of PHONE_SETTINGS) {
    const value = readOne(setting, config[setting.name]);
    if (value === undefined) unusable.push(setting.name);
    else values[setting.name] = value;
  }
  if (typeof values['smsText'] === 'string' && !values['smsText'].includes('{{code}}')) unusable.push('smsText');
  // A form carries text fields only: a nested, numeric or list value has no form encoding.
  if (values['smsBodyForm'] === true && typeof values['smsBodyTemplate'] === 'string') {
    const template = parseBodyTemplate(values['smsBodyTemplate']);
    if (template !== undefined && !isFlatTextTemplate(template)) unusable.push('smsBodyTemplate');
  }
  return unusable.length > 0 ? { ok: false, unusable } : { ok: true, settings: values as unknown as PhoneAuthSettings };
}
