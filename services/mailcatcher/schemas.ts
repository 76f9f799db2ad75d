import { z } from 'zod';

export const MailSummary = z.object({
  id: z.string(),
  receivedAt: z.string(),
  from: z.string(),
  to: z.array(z.string()),
  subject: z.string(),
  links: z.array(z.string()),
});

export const MailList = z.object({ messages: z.array(MailSummary) });
export const Mail = MailSummary.extend({ text: z.string() });
export const MailId = z.string().regex(/^mail-[0-9a-f-]{36}$/);
