import { z } from 'zod';
import { E164_PATTERN } from '../../contract/index.js';

/**
 * What the catcher takes: the body of the SMS sender's default template
 * (`{"to":"{{to}}","text":"{{text}}"}`). 1600 characters is ten concatenated segments, more
 * than any gateway sends as one message.
 */
export const SendRequest = z.object({
  to: z.string().regex(E164_PATTERN, 'an E.164 number'),
  text: z.string().min(1).max(1600),
  from: z.string().max(64).optional(),
});

export const SmsId = z.string().regex(/^sms-[0-9a-f-]{36}$/);
export const Sms = z.object({ id: z.string(), receivedAt: z.string(), to: z.string(), from: z.string(), text: z.string() });
export const SmsList = z.object({ messages: z.array(Sms) });
export const Accepted = z.object({ id: z.string(), status: z.literal('accepted') });

export const FaultRequest = z.object({
  mode: z.enum(['none', 'unavailable', 'timeout']),
  delayMs: z.number().int().min(0).max(120_000).default(0),
});
export const FaultSet = z.object({ ok: z.literal(true), fault: z.object({ mode: FaultRequest.shape.mode, delayMs: z.number().int() }) });
