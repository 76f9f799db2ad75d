/// <reference lib="dom" />
import { api, session } from './api.js';
import { button, byId, fillTable, guarded, say } from './dom.js';
import { moduleBase } from './sign-in.js';

interface Batch {
  id: string;
  count: number;
  validFrom: string;
  validUntil: string;
  durationMinutes: number;
  deviceSlots: number;
  shared: boolean;
  note: string;
  createdAt: string;
  revokedAt?: string;
  states: Record<string, number>;
}

interface Revoked {
  revoked: number;
  review?: string;
}

/** The batch form as the API's body: empty optional fields are left out. */
function batchInput(): Record<string, unknown> {
  const form = byId<HTMLFormElement>('voucher-form');
  const value = (name: string) => (form.elements.namedItem(name) as HTMLInputElement).value.trim();
  const instant = (name: string) => (value(name) === '' ? undefined : new Date(value(name)).toISOString());
  const shared = (form.elements.namedItem('shared') as HTMLInputElement).checked;
  return {
    count: Number(value('count')),
    ...(instant('validFrom') === undefined ? {} : { validFrom: instant('validFrom') }),
    validUntil: instant('validUntil') ?? '',
    durationMinutes: Number(value('durationMinutes')),
    shared,
    ...(shared ? { deviceSlots: Number(value('deviceSlots')) } : {}),
    note: value('note'),
  };
}

/** The CSV file or the printable sheet: the creating answer itself, saved as a file (the codes come only once). */
async function createAsFile(format: 'csv' | 'html'): Promise<void> {
  const response = await fetch(`${moduleBase()}api/vouchers/batches?format=${format}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${session.token() ?? ''}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(batchInput()),
  });
  if (!response.ok) {
    const failure = (await response.json().catch(() => ({}))) as { code?: string; message?: string };
    throw new Error(`${failure.code ?? `HTTP_${response.status}`}: ${failure.message ?? 'the request failed.'}`);
  }
  const link = document.createElement('a');
  link.href = URL.createObjectURL(await response.blob());
  link.download = `vouchers-${new Date().toISOString().slice(0, 10)}.${format}`;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
  say(`Batch created; the ${format === 'csv' ? 'CSV file' : 'printable sheet'} is downloaded. The codes are not shown again.`, 'ok');
  await loadVouchers();
}

async function createShown(): Promise<void> {
  const { codes } = await api<{ codes: string[] }>('POST', 'vouchers/batches', batchInput());
  const list = byId<HTMLOListElement>('voucher-codes');
  list.replaceChildren(
    ...codes.map((code) => {
      const item = document.createElement('li');
      item.textContent = code;
      return item;
    }),
  );
  say(`${codes.length} vouchers created. Copy or print the codes now: they are not shown again.`, 'ok');
  await loadVouchers();
}

async function revoke(path: string, what: string, body: Record<string, string> = {}): Promise<void> {
  if (!window.confirm(`Revoke ${what}? Its guests lose the Wi-Fi at once.`)) return;
  const answer = await api<Revoked>('POST', path, body);
  say(`${answer.revoked} voucher(s) revoked.${answer.review === undefined ? '' : ` ${answer.review}`}`, answer.review === undefined ? 'ok' : 'error');
  await loadVouchers();
}

const states = (batch: Batch) =>
  Object.entries(batch.states)
    .map(([state, count]) => `${state} ${count}`)
    .join(', ');

export async function loadVouchers(): Promise<void> {
  const { batches } = await api<{ batches: Batch[] }>('GET', 'vouchers/batches');
  fillTable(
    byId<HTMLTableElement>('voucher-batches'),
    ['Created', 'Note', 'Count', 'Valid', 'Lasts (min)', 'Use', 'States', ''],
    batches.map((batch) => [
      batch.createdAt,
      batch.note,
      batch.count,
      `${batch.validFrom} – ${batch.validUntil}`,
      batch.durationMinutes,
      batch.shared ? `shared, ${batch.deviceSlots} devices` : 'single',
      states(batch),
      batch.revokedAt === undefined
        ? button(
            'Revoke batch',
            guarded(() => revoke(`vouchers/batches/${batch.id}/revoke`, `all ${batch.count} vouchers of this batch`)),
          )
        : 'revoked',
    ]),
  );
}

export function wireVouchers(): void {
  const form = byId<HTMLFormElement>('voucher-form');
  form.addEventListener(
    'submit',
    guarded(async (event: Event) => {
      event.preventDefault();
      await createShown();
    }),
  );
  byId('voucher-csv').addEventListener(
    'click',
    guarded(() => createAsFile('csv')),
  );
  byId('voucher-sheet').addEventListener(
    'click',
    guarded(() => createAsFile('html')),
  );
  byId('voucher-revoke-code').addEventListener(
    'click',
    guarded(async () => {
      const input = byId<HTMLInputElement>('voucher-lost-code');
      await revoke('vouchers/revoke', 'the voucher with this code', { code: input.value });
      input.value = '';
    }),
  );
}
