/// <reference lib="dom" />
import { api } from './api.js';
import { button, byId, fillTable, guarded, say } from './dom.js';

interface Company {
  code: string;
  name: string;
  enabled: boolean;
  hrEndpoint?: string;
  loyaltyEndpoint?: string;
  timeoutMs: number;
  employeeIdPrefix?: string;
  hasSecret: boolean;
  updatedAt: string;
  updatedBy: string;
}

const form = (): HTMLFormElement => byId<HTMLFormElement>('company-form');
const field = (name: string): HTMLInputElement => form().elements.namedItem(name) as HTMLInputElement;
const TEXT_FIELDS = ['code', 'name', 'hrEndpoint', 'loyaltyEndpoint', 'timeoutMs', 'employeeIdPrefix'] as const;
const OPTIONAL_FIELDS = ['hrEndpoint', 'loyaltyEndpoint', 'employeeIdPrefix', 'secret'] as const;

function edit(company: Company): void {
  for (const name of TEXT_FIELDS) field(name).value = String(company[name] ?? '');
  field('enabled').checked = company.enabled;
  field('secret').value = '';
  field('name').focus();
}

export async function loadCompanies(): Promise<void> {
  const { companies } = await api<{ companies: Company[] }>('GET', 'companies');
  fillTable(
    byId<HTMLTableElement>('companies'),
    ['Code', 'Name', 'Enabled', 'HR', 'Loyalty', 'Timeout', 'Secret', 'Updated', 'Actions'],
    companies.map((c) => {
      const actions = document.createElement('span');
      actions.append(
        button(`Edit ${c.code}`, () => edit(c)),
        ' ',
        button(
          `Test ${c.code}`,
          guarded(async () => {
            byId('probe').textContent = JSON.stringify(await api('POST', `companies/${encodeURIComponent(c.code)}/test`), null, 2);
            say(`Probe of ${c.code} done.`, 'ok');
          }),
        ),
        ' ',
        button(
          `Delete ${c.code}`,
          guarded(async () => {
            if (!confirm(`Delete ${c.code}? Users stay.`)) return;
            await api('DELETE', `companies/${encodeURIComponent(c.code)}`);
            say(`${c.code} deleted.`, 'ok');
            await loadCompanies();
          }),
        ),
      );
      return [
        c.code,
        c.name,
        c.enabled ? 'yes' : 'no',
        c.hrEndpoint,
        c.loyaltyEndpoint,
        c.timeoutMs,
        c.hasSecret ? 'set' : 'none',
        `${c.updatedAt} by ${c.updatedBy}`,
        actions,
      ];
    }),
  );
  // Keep the operator's choice when the list is refreshed.
  const select = byId<HTMLSelectElement>('import-company');
  const chosen = select.value;
  select.replaceChildren(...companies.map((c) => new Option(`${c.code} - ${c.name}`, c.code)));
  if (companies.some((c) => c.code === chosen)) select.value = chosen;
}

export function wireCompanies(): void {
  form().addEventListener(
    'submit',
    guarded(async (event: SubmitEvent) => {
      event.preventDefault();
      const body: Record<string, unknown> = {
        name: field('name').value,
        enabled: field('enabled').checked,
        timeoutMs: Number(field('timeoutMs').value || 3000),
      };
      for (const name of OPTIONAL_FIELDS) if (field(name).value !== '') body[name] = field(name).value;
      const code = field('code').value;
      await api('PUT', `companies/${encodeURIComponent(code)}`, body);
      say(`Company ${code} saved.`, 'ok');
      await loadCompanies();
    }),
  );
}
