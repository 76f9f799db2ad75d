import { CITIZEN_ID_PATTERN as CITIZEN_ID, EMPLOYEE_ID_PATTERN as EMPLOYEE_ID } from '../../contract/index.js';
import type { TokenRequest } from '../host/auth-host.js';

// spec 2.3 EmployeeVerifyRequest / spec 8: the wire contract's patterns.

export type Credentials = { kind: 'missing' } | { kind: 'malformed'; employeeId: string } | { kind: 'wellFormed'; employeeId: string; citizenId: string };

/** Reads employeeId and citizenId from the token request form; the citizen number goes no further than HR. */
export function readCredentials(request: TokenRequest): Credentials {
  const employeeId = request.formParam('employeeId');
  const citizenId = request.formParam('citizenId');
  if (employeeId === undefined || employeeId === '' || citizenId === undefined || citizenId === '') {
    return { kind: 'missing' };
  }
  if (!EMPLOYEE_ID.test(employeeId) || !CITIZEN_ID.test(citizenId)) {
    return { kind: 'malformed', employeeId };
  }
  return { kind: 'wellFormed', employeeId, citizenId };
}
