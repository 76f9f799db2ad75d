import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { citizenHash, hashesEqual } from './citizen-hash.js';
import { EmployeeFixture, type EmployeeRecord, type EmployeeVerifyResponse } from './schemas.js';

export type VerifyOutcome = { matched: false; response: EmployeeVerifyResponse } | { matched: true; response: EmployeeVerifyResponse };

// Spec 4.2 rule 2: unknown employee and wrong citizen number answer this very object.
const NO_MATCH: EmployeeVerifyResponse = { verified: false, active: false, reason: 'NOT_FOUND_OR_MISMATCH' };

export interface EmployeeDirectory {
  verify(employeeId: string, citizenId: string): VerifyOutcome;
}

export function loadFixture(path: string): EmployeeRecord[] {
  return EmployeeFixture.parse(JSON.parse(readFileSync(path, 'utf8'))).employees;
}

/**
 * Read-only employee lookup. An unknown id is compared against a random hash, so both kinds
 * of miss cost one HMAC and one constant-time comparison (spec 4.2 rule 2).
 */
export function createDirectory(records: readonly EmployeeRecord[], hashKey: string): EmployeeDirectory {
  const byId = new Map(records.map((record) => [record.employeeId, { record, hash: Buffer.from(record.citizenHash, 'hex') }]));
  const decoy = randomBytes(32);
  return {
    verify(employeeId, citizenId) {
      const entry = byId.get(employeeId);
      const matches = hashesEqual(citizenHash(hashKey, citizenId), entry?.hash ?? decoy);
      if (entry === undefined || !matches) return { matched: false, response: NO_MATCH };
      const { record } = entry;
      if (!record.active) {
        // Spec 4.2 rule 3.
        return {
          matched: true,
          response: {
            verified: true,
            active: false,
            employeeRef: record.employeeRef,
            company: record.company,
            wifiEligible: false,
            reason: 'EMPLOYEE_INACTIVE',
          },
        };
      }
      return {
        matched: true,
        response: { verified: true, active: true, employeeRef: record.employeeRef, company: record.company, wifiEligible: record.wifiEligible },
      };
    },
  };
}
