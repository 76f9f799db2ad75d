import { z } from 'zod';
import { EMPLOYEE_ID_PATTERN } from '../../contract/index.js';
import { HR_COMPANIES as COMPANIES } from '../../contract/hr.js';

// Spec 2.3 and 2.5: the request and the answer are the wire contract's; the fixture record is HR's own.
export { EmployeeVerifyRequest, EmployeeVerifyResponse, HR_COMPANIES as COMPANIES } from '../../contract/hr.js';

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
