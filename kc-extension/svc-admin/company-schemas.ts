import { z } from 'zod';
import { COMPANY_CODE_PATTERN } from '../../contract/ids.js';

/** spec 2.10 / 8 */
export const COMPANY_CODE = COMPANY_CODE_PATTERN;
const ENDPOINT = /^https?:\/\/[^/?#\s]+(\/\S*)?$/;

const endpoint = z.string().max(2048).regex(ENDPOINT, 'must be an http(s) URL');

/** PUT /api/companies/{code}: a full replace (spec 4.7 rule 5); `secret` is write-only. */
export const CompanyInput = z.object({
  name: z.string().trim().min(1).max(200),
  enabled: z.boolean().default(false),
  hrEndpoint: endpoint.optional(),
  loyaltyEndpoint: endpoint.optional(),
  timeoutMs: z.number().int().min(500).max(15000).default(3000),
  employeeIdPrefix: z
    .string()
    .max(32)
    .regex(/^[A-Za-z0-9._-]*$/, 'must use letters, digits, dot, underscore or dash')
    .optional(),
  secret: z.string().min(16).max(512).optional(),
});
export type CompanyInput = z.output<typeof CompanyInput>;

/** What the realm stores per company; `sealedSecret` is the host-sealed webhook secret. */
export const StoredCompany = z.object({
  code: z.string(),
  name: z.string(),
  enabled: z.boolean(),
  hrEndpoint: z.string().optional(),
  loyaltyEndpoint: z.string().optional(),
  timeoutMs: z.number(),
  employeeIdPrefix: z.string().optional(),
  updatedAt: z.string(),
  updatedBy: z.string(),
  sealedSecret: z.string().optional(),
});
export type StoredCompany = z.output<typeof StoredCompany>;

/** spec 2.10 Company as answered: `hasSecret`, never the secret. */
export const Company = StoredCompany.omit({ sealedSecret: true }).extend({ hasSecret: z.boolean() }).strict();

/** spec 2.10 Probe without `ms` and `error` (they would map what answers where); NOT_ALLOWED: an internal target not allowed. */
export const Probe = z
  .object({
    state: z.union([z.enum(['UP', 'UNREACHABLE', 'NOT_CONFIGURED', 'NOT_ALLOWED']), z.string().regex(/^HTTP_\d{3}$/)]),
    url: z.string().optional(),
  })
  .strict();
