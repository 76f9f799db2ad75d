import { z } from 'zod';
import { commonSettings, envInt, envPort } from '../kit/index.js';

/** The development mail catcher Keycloak sends its verify-email mails to. */
export const MailCatcherConfig = z.object({
  ...commonSettings,
  MAIL_SMTP_PORT: envPort(1025).describe("SMTP port the catcher accepts mail on (Keycloak's realm smtpServer points here in development); 0: any free port."),
  MAIL_KEEP: envInt(200, 1, 10_000).describe('Messages kept in memory, newest first; older ones are dropped (nothing is written to disk).'),
  MAIL_MAX_BYTES: envInt(1_048_576, 1024, 52_428_800).describe('Largest message accepted (SMTP SIZE); a larger one is refused.'),
});
export type MailCatcherConfig = z.output<typeof MailCatcherConfig>;
