import { pino, stdSerializers, type DestinationStream, type Logger as PinoLogger } from 'pino';
import { REDACTED, scrub, scrubString } from './redaction.js';

export type Logger = PinoLogger;

export interface LoggerOptions {
  service: string;
  level?: string;
  /** Where lines go; stdout when absent. Tests pass a collecting stream. */
  destination?: DestinationStream;
}

/**
 * The one logger every service uses. pino's `redact` removes the well-known header paths at
 * no cost on the hot path; `formatters.log` and `hooks.logMethod` then scrub what paths
 * cannot reach (a secret key at any depth, a citizen-number-shaped run inside any string).
 */
export function createLogger(options: LoggerOptions): Logger {
  return pino(
    {
      level: options.level ?? 'info',
      base: { service: options.service },
      timestamp: pino.stdTimeFunctions.isoTime,
      serializers: { err: stdSerializers.err },
      redact: {
        paths: [
          'citizenId',
          'password',
          '*.citizenId',
          '*.password',
          'req.headers.authorization',
          'req.headers.cookie',
          'req.headers["x-api-key"]',
          'res.headers["set-cookie"]',
        ],
        censor: REDACTED,
      },
      formatters: {
        log: (object) => scrub(object) as Record<string, unknown>,
      },
      hooks: {
        logMethod(args, method) {
          const clean = args.map((arg: unknown) => (typeof arg === 'string' ? scrubString(arg) : arg));
          method.apply(this, clean as Parameters<typeof method>);
        },
      },
    },
    options.destination,
  );
}
