import { z } from 'zod';
import { Company, Probe } from '../../../../kc-extension/svc-admin/company-schemas.js';
import { BatchView, StoredBatch, VoucherView } from '../../../../kc-extension/svc-admin/voucher-schemas.js';

/** spec 2.2 */
export const ErrorBody = z
  .object({
    code: z.string(),
    message: z.string(),
    correlationId: z.string().regex(/^corr-[0-9a-f-]{36}$/),
    timestamp: z.iso.datetime(),
  })
  .strict();

export const CompanyList = z.object({ companies: z.array(Company) }).strict();
export const Saved = z.object({ saved: z.literal(true), code: z.string() }).strict();
export const Removed = z.object({ removed: z.boolean(), code: z.string() }).strict();
export const ProbeReply = z.object({ hr: Probe, loyalty: Probe }).strict();
export const WebhookReply = z.object({ result: z.enum(['APPLIED', 'RECORDED', 'DUPLICATE', 'NO_MATCH', 'CONFLICT', 'REJECTED']), detail: z.string() }).strict();
export const EventLogEntry = z
  .object({
    id: z.string(),
    at: z.iso.datetime(),
    company: z.string(),
    type: z.string(),
    outcome: z.string(),
    detail: z.string(),
    payload: z.record(z.string(), z.unknown()),
  })
  .strict();
export const EventList = z.object({ events: z.array(EventLogEntry) }).strict();

/** Voucher batches (docs/operate/keycloak.md "Vouchers"): the codes only in the creating answer. */
export const CreatedBatch = z
  .object({ batch: StoredBatch.strict(), codes: z.array(z.string().regex(/^[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}$/)) })
  .strict();
export const BatchList = z.object({ batches: z.array(BatchView) }).strict();
export const BatchDetail = z.object({ batch: BatchView, vouchers: z.array(VoucherView) }).strict();
export const VouchersRevoked = z.object({ revoked: z.number().int(), voucherIds: z.array(z.string()), review: z.string().optional() }).strict();
