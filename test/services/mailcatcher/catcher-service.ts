import type { ExecutionContext } from 'ava';
import nodemailer, { type SendMailOptions } from 'nodemailer';
import { loadConfig } from '../../../services/kit/index.js';
import { createApp } from '../../../services/mailcatcher/app.js';
import { MailCatcherConfig } from '../../../services/mailcatcher/config.js';
import { boot, capturingLogger } from '../../helpers/service.js';

/** The mail catcher booted in-process (HTTP and SMTP on free ports); closed when the test ends. */
export async function mailCatcherService(t: ExecutionContext, env: Record<string, string> = {}) {
  const { logger, lines } = capturingLogger('mailcatcher');
  const instance = await createApp(loadConfig(MailCatcherConfig, { MAIL_SMTP_PORT: '0', ...env }), logger);
  t.teardown(() => instance.close());
  const service = await boot(t, instance.app);
  const send = (mail: SendMailOptions, auth?: { user: string; pass: string }) =>
    nodemailer.createTransport({ host: '127.0.0.1', port: instance.smtpPort, secure: false, ignoreTLS: true, ...(auth ? { auth } : {}) }).sendMail(mail);
  return { service, send, lines, smtpPort: instance.smtpPort };
}
