import { z } from 'zod';

/** An environment flag: `true`/`1` or `false`/`0` (z.coerce.boolean would read "false" as true). */
export function envFlag(defaultValue: boolean) {
  return z
    .enum(['true', 'false', '1', '0'])
    .default(defaultValue ? 'true' : 'false')
    .transform((value) => value === 'true' || value === '1');
}

export function envPort(defaultValue: number) {
  return z.coerce.number().int().min(0).max(65535).default(defaultValue);
}

export function envInt(defaultValue: number, min: number, max: number) {
  return z.coerce.number().int().min(min).max(max).default(defaultValue);
}

/** Settings every service shares. */
export const commonSettings = {
  // Unset (or empty) means the service's spec port; 0 means any free port, as every server reads it.
  PORT: z
    .preprocess((value) => (value === '' ? undefined : value), z.coerce.number().int().min(0).max(65535).optional())
    .describe("Port to listen on; unset: the service's spec port; 0: any free port."),
  HOST: z.string().default('127.0.0.1').describe('Interface to listen on.'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info').describe('pino log level.'),
  TEST_HARNESS: envFlag(false).describe('Enables the /admin/* fault-injection endpoints (404 when off).'),
};

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration: ${problems.join('; ')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Validates the environment against a service's schema at start-up ("fail fast"). Problems
 * name the setting, never its value, since some settings are keys.
 */
export function loadConfig<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv = process.env): z.output<S> {
  const result = schema.safeParse(env);
  if (!result.success) {
    throw new ConfigError(result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  }
  if (env['NODE_ENV'] === 'production') {
    const config = result.data as Record<string, unknown>;
    const kept = developmentSecrets(schema, config);
    // Switches for tests and demos are refused too, however the service is started.
    const switches = DEVELOPMENT_SWITCHES.filter((name) => config[name] === true);
    const problems = [
      ...kept.map((name) => `${name}: still the development default; set a secret of your own in production`),
      ...switches.map((name) => `${name}: a test and demo switch; leave it off in production`),
    ];
    if (problems.length > 0) throw new ConfigError(problems);
  }
  return result.data;
}

/** Settings that open test or demo behaviour (fault injection, tokens in answers): never on in production. */
const DEVELOPMENT_SWITCHES = ['TEST_HARNESS', 'EXPOSE_TOKEN'];

/** Settings holding a key, a key list (kit/api-key.ts) or a secret, by name (every service names them so). */
const SECRET_SETTING = /(_KEYS?|_SECRET)$/;

/** The secret strings a setting's value holds: the value itself, or each key of a key list. */
function secretsIn(value: unknown): unknown[] {
  if (!Array.isArray(value)) return [value];
  return value.map((entry: unknown) => (typeof entry === 'object' && entry !== null && 'key' in entry ? entry.key : entry));
}

/**
 * The secret settings still at the default they ship with: those defaults are in the public
 * repository, so with NODE_ENV=production a service refuses to start on any of them (a key
 * list on any one of its shipped keys).
 */
export function developmentSecrets(schema: z.ZodType, config: Record<string, unknown>): string[] {
  if (!(schema instanceof z.ZodObject)) return [];
  return Object.entries(schema.shape as Record<string, z.ZodType>)
    .filter(([name]) => SECRET_SETTING.test(name))
    .filter(([name, field]) => {
      const shipped = field.safeParse(undefined);
      if (!shipped.success || shipped.data === undefined) return false;
      const kept = secretsIn(config[name]);
      return secretsIn(shipped.data).some((secret) => kept.includes(secret));
    })
    .map(([name]) => name);
}
