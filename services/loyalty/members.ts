import { readFileSync } from 'node:fs';
import { MemberFixture, type LookupResponse, type MemberRecord } from './schemas.js';

export function loadMembers(path: string): MemberRecord[] {
  return MemberFixture.parse(JSON.parse(readFileSync(path, 'utf8'))).members;
}

export type MemberLookup = (email: string) => LookupResponse;

/**
 * Spec 4.6: exactly five fields or `{found:false}`; a SUSPENDED or CLOSED account answers
 * tier NONE whatever tier it once held. Emails compare case-insensitively.
 */
export function createMemberLookup(records: readonly MemberRecord[]): MemberLookup {
  const byEmail = new Map(records.map((record) => [record.email.toLowerCase(), record]));
  return (email) => {
    const record = byEmail.get(email.toLowerCase());
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
