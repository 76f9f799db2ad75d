import type { AddressInfo } from 'node:net';
import { simpleParser, type AddressObject } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import type { Logger } from '../kit/index.js';
import { linksOf, type Inbox } from './inbox.js';

export interface SmtpListener {
  port: number;
  close(): Promise<void>;
}

function addressesOf(field: AddressObject | AddressObject[] | undefined): string[] {
  const objects = field === undefined ? [] : Array.isArray(field) ? field : [field];
  return objects.flatMap((object) => object.value.map((entry) => entry.address ?? '')).filter(Boolean);
}

/**
 * The catcher's SMTP side (smtp-server + mailparser): every message is accepted and kept in the
 * inbox. Plain SMTP without TLS, AUTH optional and any credentials accepted (a development sink,
 * bound to HOST). The log names a message by id and size only: never an address, the subject,
 * the body, a link or an AUTH password (spec 1: privacy; a verify link is a credential).
 */
export function startSmtp(inbox: Inbox, options: { port: number; host: string; maxBytes: number; logger: Logger }): Promise<SmtpListener> {
  const { logger } = options;
  const server = new SMTPServer({
    logger: false,
    secure: false,
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    allowInsecureAuth: true,
    size: options.maxBytes,
    onAuth: (_auth, _session, callback) => callback(null, { user: 'catcher' }),
    onData(stream, _session, callback) {
      simpleParser(stream, { skipImageLinks: true, skipTextLinks: true })
        .then((parsed) => {
          if (stream.sizeExceeded) {
            callback(Object.assign(new Error('message too large'), { responseCode: 552 }));
            return;
          }
          const text = parsed.text ?? '';
          const caught = inbox.add({
            from: addressesOf(parsed.from)[0] ?? '',
            to: addressesOf(parsed.to),
            subject: parsed.subject ?? '',
            text,
            links: linksOf(text, typeof parsed.html === 'string' ? parsed.html : ''),
          });
          logger.info({ mailId: caught.id, bytes: text.length }, 'mail caught');
          callback();
        })
        .catch(() => {
          logger.warn('a message could not be parsed; refused');
          callback(Object.assign(new Error('message could not be parsed'), { responseCode: 554 }));
        });
    },
  });
  server.on('error', (error: Error) => logger.warn({ errName: error.name }, 'SMTP connection error'));
  return new Promise((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(options.port, options.host, () => {
      const port = (server.server.address() as AddressInfo).port;
      resolve({ port, close: () => new Promise<void>((done) => server.close(() => done())) });
    });
  });
}
