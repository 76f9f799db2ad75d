import { z } from 'zod';
import { CITIZEN_ID_PATTERN, EMPLOYEE_ID_PATTERN } from '../../contract/index.js';

// Spec 2.3 EmployeeVerifyRequest and 2.5 EmployeeVerifyResponse; the patterns are the wire contract's.

export const EmployeeVerifyRequest = z.object({
  employeeId: z.string().regex(EMPLOYEE_ID_PATTERN),
  citizenId: z.string().regex(CITIZEN_ID_PATTERN),
});
export type EmployeeVerifyRequest = z.output<typeof EmployeeVerifyRequest>;

export const COMPANIES = ['MEMBER_A', 'MEMBER_B', 'MEMBER_C', 'PARTNER-X'] as const;

export const EmployeeVerifyResponse = z.object({
  verified: z.boolean(),
  active: z.boolean(),
  employeeRef: z.string().optional(),
  company: z.enum(COMPANIES).optional(),
  wifiEligible: z.boolean().optional(),
  reason: z.enum(['NOT_FOUND_OR_MISMATCH', 'EMPLOYEE_INACTIVE']).optional(),
});
export type EmployeeVerifyResponse = z.output<typeof EmployeeVerifyResponse>;

/** One fixture record. Name and department exist only to prove they never leave the service. */
export const EmployeeRecord = z.object({
  employeeId: z.string().regex(EMPLOYEE_ID_PATTERN),
  citizenHash: z.string().regex(/^[0-9a-f]{64}$/),
  employeeRef: z.string().min(1),
  company: z.enum(COMPANIES),
  active: z.boolean(),
  wifiEligible: z.boolean(),
  fullName: z.string(),
  department: z.string(),
});
export type EmployeeRecord = z.output<typeof EmployeeRecord>;

export const EmployeeFixture = z.object({ employees: z.array(EmployeeRecord) });
