import type { TokenRequest } from '../host/auth-host.js';

// spec 2.3 EmployeeVerifyRequest / spec 8.
const EMPLOYEE_ID = /^[A-Za-z0-9._-]{3,32}$/;
const CITIZEN_ID = /^[0-9]{9,12}$/;

export type Credentials =
  | { kind: 'missing' }
  | { kind: 'malformed'; employeeId: string }
  | { kind: 'wellFormed'; employeeId: string; citizenId: string };

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
