import type { Logger } from '../kit/index.js';
import { ApiError, createServiceApp, healthRoute, route, type ServiceInstance } from '../kit/index.js';
import type { MailCatcherConfig } from './config.js';
import { createInbox, type Inbox } from './inbox.js';
import { inboxPages } from './pages.js';
import { Mail, MailId, MailList } from './schemas.js';
import { startSmtp } from './smtp.js';
import { z } from 'zod';

export interface MailCatcher extends ServiceInstance {
  inbox: Inbox;
  smtpPort: number;
}

/**
 * A development mail catcher. SMTP in (MAIL_SMTP_PORT), the inbox out: JSON for
 * tests (`/api/v1/messages`), pages for a person (`/`). Messages live in memory only.
 */
export async function createApp(config: MailCatcherConfig, logger: Logger): Promise<MailCatcher> {
  const inbox = createInbox(config.MAIL_KEEP);
  const smtp = await startSmtp(inbox, { port: config.MAIL_SMTP_PORT, host: config.HOST, maxBytes: config.MAIL_MAX_BYTES, logger });
  logger.info({ smtpPort: smtp.port }, 'accepting mail');
  const summary = ({ text: _text, ...rest }: z.output<typeof Mail>) => rest;
  const app = createServiceApp({
    service: 'mailcatcher',
    logger,
    routes: [
      healthRoute('mailcatcher', () => ({ ready: true, detail: { smtpPort: smtp.port } })),
      route({
        method: 'get',
        path: '/api/v1/messages',
        summary: 'Caught messages, newest first, without their text; `to` keeps those addressed to it.',
        query: { to: z.string().max(320).optional() },
        responses: { 200: { description: 'The messages.', schema: MailList }, 400: { description: 'INVALID_REQUEST' } },
        handle: ({ query }) => ({ status: 200, body: { messages: inbox.list(query.to).map(summary) } }),
      }),
      route({
        method: 'get',
        path: '/api/v1/messages/:id',
        summary: 'One caught message with its text and links.',
        params: { id: MailId },
        responses: { 200: { description: 'The message.', schema: Mail }, 400: { description: 'INVALID_REQUEST' }, 404: { description: 'NOT_FOUND' } },
        handle: ({ params }) => {
          const mail = inbox.get(params.id);
          if (mail === undefined) throw new ApiError('NOT_FOUND', { message: 'No message has that id.' });
          return { status: 200, body: mail };
        },
      }),
    ],
    routers: [inboxPages(inbox)],
  });
  return { app, inbox, smtpPort: smtp.port, close: () => smtp.close() };
}
