import { z } from 'zod';
import { normalizePhone } from '../../contract/index.js';
import type { Logger } from '../kit/index.js';
import { ApiError, createServiceApp, healthRoute, route, type ServiceInstance } from '../kit/index.js';
import type { SmsCatcherConfig } from './config.js';
import { createSmsInbox, type SmsInbox } from './inbox.js';
import { smsPages } from './pages.js';
import { Accepted, FaultRequest, FaultSet, SendRequest, Sms, SmsId, SmsList } from './schemas.js';

export interface SmsCatcher extends ServiceInstance {
  inbox: SmsInbox;
}

type Fault = z.output<typeof FaultRequest>;

/**
 * A development SMS gateway. The phone sign-in's HTTP SMS sender posts here (`POST /api/v1/sms`,
 * any credentials accepted, as the mail catcher takes any SMTP AUTH); a person reads the texts at
 * `/`, tests at `/api/v1/messages`. `POST /admin/fault` makes it fail like a gateway that is down
 * or hangs, so the sign-in's 503 can be shown end to end. Messages live in memory only, and the
 * log names a message by id only: a number and a code are personal data and a credential.
 */
export async function createApp(config: SmsCatcherConfig, logger: Logger): Promise<SmsCatcher> {
  const inbox = createSmsInbox(config.SMS_KEEP);
  let fault: Fault = { mode: 'none', delayMs: 0 };
  const app = createServiceApp({
    service: 'smscatcher',
    logger,
    routes: [
      healthRoute('smscatcher', () => ({ ready: true, detail: { fault } })),
      route({
        method: 'post',
        path: '/api/v1/sms',
        summary:
          'Takes one text message, as an SMS gateway would, as JSON or form-encoded (the shape Twilio-style gateways take); while a fault is set it fails as set and keeps nothing.',
        body: SendRequest,
        formBody: true,
        responses: {
          202: { description: 'Caught.', schema: Accepted },
          400: { description: 'INVALID_REQUEST: not an E.164 number, or no text.' },
          503: { description: 'SERVICE_UNAVAILABLE: a fault is set (`unavailable` at once, `timeout` after its delay).' },
        },
        handle: async ({ body }) => {
          if (fault.mode === 'timeout') await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
          if (fault.mode !== 'none') throw new ApiError('SERVICE_UNAVAILABLE', { message: 'The SMS catcher is set to fail.' });
          const caught = inbox.add({ to: body.to, from: body.from ?? '', text: body.text });
          logger.info({ smsId: caught.id, chars: caught.text.length }, 'text message caught');
          return { status: 202, body: { id: caught.id, status: 'accepted' } };
        },
      }),
      route({
        method: 'get',
        path: '/api/v1/messages',
        summary: 'Caught text messages, newest first; `to` (any form contract/phone.ts reads) keeps those to that number.',
        query: { to: z.string().max(32).optional() },
        responses: { 200: { description: 'The messages.', schema: SmsList }, 400: { description: 'INVALID_REQUEST: `to` is not a phone number.' } },
        handle: ({ query }) => {
          const to = query.to === undefined ? undefined : normalizePhone(query.to);
          if (query.to !== undefined && to === undefined) throw new ApiError('INVALID_REQUEST', { message: 'to must be a phone number.' });
          return { status: 200, body: { messages: inbox.list(to) } };
        },
      }),
      route({
        method: 'get',
        path: '/api/v1/messages/:id',
        summary: 'One caught text message.',
        params: { id: SmsId },
        responses: { 200: { description: 'The message.', schema: Sms }, 400: { description: 'INVALID_REQUEST' }, 404: { description: 'NOT_FOUND' } },
        handle: ({ params }) => {
          const sms = inbox.get(params.id);
          if (sms === undefined) throw new ApiError('NOT_FOUND', { message: 'No message has that id.' });
          return { status: 200, body: sms };
        },
      }),
      route({
        method: 'post',
        path: '/admin/fault',
        summary:
          'Makes the catcher fail like a real gateway: `unavailable` answers 503 at once, `timeout` holds for `delayMs` then answers 503; `none` ends it.',
        body: FaultRequest,
        responses: { 200: { description: 'Fault set.', schema: FaultSet }, 400: { description: 'INVALID_REQUEST: unknown mode or delayMs out of range.' } },
        handle: ({ body }) => {
          fault = body;
          logger.warn({ fault }, 'fault set');
          return { status: 200, body: { ok: true, fault } };
        },
      }),
    ],
    routers: [smsPages(inbox)],
  });
  return { app, inbox, close: async () => undefined };
}
