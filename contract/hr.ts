import { z } from 'zod';
import { CITIZEN_ID_PATTERN, EMPLOYEE_ID_PATTERN } from './ids.js';

/** Spec 2.5: the member company codes HR answers with. */
export const HR_COMPANIES = ['MEMBER_A', 'MEMBER_B', 'MEMBER_C', 'PARTNER-X'] as const;

/** Spec 2.3: the pair the identity provider asks HR to verify (POST /api/v1/employees/verify). */
export const EmployeeVerifyRequest = z.object({
  employeeId: z.string().regex(EMPLOYEE_ID_PATTERN),
  citizenId: z.string().regex(CITIZEN_ID_PATTERN),
});
export type EmployeeVerifyRequest = z.output<typeof EmployeeVerifyRequest>;

/** Spec 2.5: HR's whole answer; no name, department or contact detail ever travels. */
export const EmployeeVerifyResponse = z.object({
  verified: z.boolean(),
  active: z.boolean(),
  employeeRef: z.string().optional(),
  company: z.enum(HR_COMPANIES).optional(),
  wifiEligible: z.boolean().optional(),
  reason: z.enum(['NOT_FOUND_OR_MISMATCH', 'EMPLOYEE_INACTIVE']).optional(),
});
export type EmployeeVerifyResponse = z.output<typeof EmployeeVerifyResponse>;
