/// <reference lib="dom" />
import { api } from './api.js';
import { button, byId, fillTable, guarded, say } from './dom.js';

interface PersonSummary {
  id: string;
  username: string;
  email: string | null;
  phone: string | null;
  employeeRef: string | null;
  userType: string | null;
  enabled: boolean;
}

interface PersonRecord {
  subjectId: string;
  account: (PersonSummary & { emailVerified: boolean; attributes: Record<string, string | null> }) | null;
  sessions: {
    sessionId: string;
    state: string;
    grantedAt: string | null;
    expiresAt: string | null;
    revokeReason: string | null;
    connections: { nasId: string; startedAt: string; stoppedAt: string | null; inputOctets: number; outputOctets: number }[];
  }[];
  entitlements: { entitlementType: string; status: string; validUntil: string; permission: { tier: string } }[];
  termsAcceptances: { version: string; acceptedAt: string; channel: string }[];
}

interface AuditEntry {
  at: string;
  operator: string;
  action: string;
  person: string | null;
  reason: string;
  outcome: string;
}

const findForm = (): HTMLFormElement => byId<HTMLFormElement>('person-find');
const field = (name: string): HTMLInputElement | HTMLSelectElement => findForm().elements.namedItem(name) as HTMLInputElement | HTMLSelectElement;
/** Every access states why; the same reason goes with the find, the read and the erasure that follow it. */
const reason = (): string => field('reason').value;
const query = (values: Record<string, string>): string => new URLSearchParams(values).toString();

function showRecord(record: PersonRecord): void {
  byId('person-record').hidden = false;
  byId('person-record-title').textContent =
    record.account === null ? `No account (${record.subjectId}): records left by an erasure stopped part-way` : `Records of ${record.account.username}`;
  const attributes =
    record.account === null ? [] : Object.entries({ email: record.account.email, enabled: record.account.enabled, ...record.account.attributes });
  fillTable(
    byId<HTMLTableElement>('person-account'),
    ['Account', 'Value'],
    attributes.map(([name, value]) => [name, value === null ? '' : String(value)]),
  );
  fillTable(
    byId<HTMLTableElement>('person-sessions'),
    ['Network session', 'State', 'Granted', 'Ends', 'Connections (NAS, start, octets in/out)'],
    record.sessions.map((session) => [
      session.sessionId,
      session.revokeReason === null ? session.state : `${session.state} (${session.revokeReason})`,
      session.grantedAt,
      session.expiresAt,
      session.connections.map((c) => `${c.nasId} ${c.startedAt} ${c.inputOctets}/${c.outputOctets}`).join('; '),
    ]),
  );
  fillTable(
    byId<HTMLTableElement>('person-entitlements'),
    ['Entitlement', 'Tier', 'Status', 'Valid until'],
    record.entitlements.map((entitlement) => [entitlement.entitlementType, entitlement.permission.tier, entitlement.status, entitlement.validUntil]),
  );
  fillTable(
    byId<HTMLTableElement>('person-terms'),
    ['Terms version accepted', 'At', 'Signing in by'],
    record.termsAcceptances.map((acceptance) => [acceptance.version, acceptance.acceptedAt, acceptance.channel]),
  );
  const erase = byId<HTMLButtonElement>('person-erase');
  erase.dataset['subject'] = record.subjectId;
}

async function readPerson(id: string): Promise<void> {
  showRecord(await api<PersonRecord>('GET', `persons/${encodeURIComponent(id)}?${query({ reason: reason() })}`));
  say('Records read; the read is in the audit.', 'ok');
}

async function erasePerson(): Promise<void> {
  const id = byId<HTMLButtonElement>('person-erase').dataset['subject'];
  if (id === undefined || id === '') return;
  if (!confirm('Erase this person? Their network sessions end, their records are erased at every service and their account is removed. This cannot be undone.'))
    return;
  await api('POST', `persons/${encodeURIComponent(id)}/erase`, { confirm: true, reason: reason() });
  byId('person-record').hidden = true;
  byId<HTMLTableElement>('persons').replaceChildren();
  say('The person is erased; the erasure is in the audit.', 'ok');
}

export function wirePersons(): void {
  findForm().addEventListener(
    'submit',
    guarded(async (event: SubmitEvent) => {
      event.preventDefault();
      byId('person-record').hidden = true;
      const { persons } = await api<{ persons: PersonSummary[] }>('GET', `persons?${query({ [field('by').value]: field('value').value, reason: reason() })}`);
      fillTable(
        byId<HTMLTableElement>('persons'),
        ['Account', 'Email', 'Phone', 'Employee reference', 'Type', 'Enabled', 'Actions'],
        persons.map((person) => [
          person.username,
          person.email,
          person.phone,
          person.employeeRef,
          person.userType,
          person.enabled ? 'yes' : 'no (held)',
          button(
            `Read records of ${person.username}`,
            guarded(() => readPerson(person.id)),
          ),
        ]),
      );
      say(persons.length === 0 ? 'Nobody found; the find is in the audit.' : `${persons.length} found; the find is in the audit.`, 'ok');
    }),
  );
  byId('person-erase').addEventListener('click', guarded(erasePerson));
}

export async function loadPersons(): Promise<void> {
  // Nothing is shown before the operator asks with a reason.
}

export async function loadAudit(): Promise<void> {
  const { entries, retentionDays } = await api<{ entries: AuditEntry[]; retentionDays: number }>('GET', 'audit');
  byId('audit-window').textContent = retentionDays === 0 ? 'Entries are kept for ever.' : `Entries are kept ${retentionDays} days.`;
  fillTable(
    byId<HTMLTableElement>('audit'),
    ['At', 'Operator', 'Action', 'Person (keyed reference)', 'Outcome', 'Reason'],
    entries.map((entry) => [entry.at, entry.operator, entry.action, entry.person ?? '(nobody found)', entry.outcome, entry.reason]),
  );
}

export function wireAudit(): void {
  byId('audit-refresh').addEventListener('click', guarded(loadAudit));
}
