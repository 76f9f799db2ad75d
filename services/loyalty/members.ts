import { readFileSync } from 'node:fs';
import { normalizePhone } from '../../contract/phone.js';
import type { LookupKey } from '../../contract/loyalty.js';
import { MemberFixture, type LookupResponse, type MemberRecord } from './schemas.js';

export function loadMembers(path: string): MemberRecord[] {
  return MemberFixture.parse(JSON.parse(readFileSync(path, 'utf8'))).members;
}

export type MemberLookup = (key: LookupKey) => LookupResponse;

/**
 * Spec 4.6: exactly five fields or `{found:false}`; a SUSPENDED or CLOSED account answers
 * tier NONE whatever tier it once held. Emails compare case-insensitively.
 */
export function createMemberLookup(records: readonly MemberRecord[]): MemberLookup {
  const byEmail = new Map(records.map((record) => [record.email.toLowerCase(), record]));
  // The fixture's numbers are written as people write them; both sides compare in E.164.
  const byPhone = new Map(
    records.flatMap((record) => {
      const e164 = normalizePhone(record.phone);
      return e164 === undefined ? [] : [[e164, record] as const];
    }),
  );
  return (key) => {
    const record = 'email' in key ? byEmail.get(key.email.toLowerCase()) : byPhone.get(key.phone);
    if (record === undefined) return { found: false };
    return {
      found: true,
      memberRef: record.memberRef,
      tier: record.status === 'ACTIVE' ? record.tier : 'NONE',
      status: record.status,
      wifiBenefit: record.wifiBenefit,
    };
  };
}
