/// <reference lib="dom" />
import { api } from './api.js';
import { byId, fillTable, guarded, say } from './dom.js';

interface ImportResult {
  mode: string;
  total: number;
  counts: Record<string, number>;
  outcomes: { line: number; action: string; employeeRef?: string; email?: string; username?: string; note?: string }[];
}

function parseCsv(text: string): Record<string, string>[] {
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== '');
  const head = (lines.shift() ?? '').split(',').map((name) => name.trim());
  if (!head.includes('employeeId') && !head.includes('email'))
    throw new Error('CSV_HEADER: the first line must name the columns: employeeId,citizenId,email,fullName.');
  return lines.map((line) => {
    const cells = line.split(',');
    const row: Record<string, string> = {};
    head.forEach((name, i) => {
      const value = (cells[i] ?? '').trim();
      if (value !== '') row[name] = value;
    });
    return row;
  });
}

async function run(mode: 'preview' | 'commit'): Promise<void> {
  const file = byId<HTMLInputElement>('import-file').files?.[0];
  if (file === undefined) throw new Error('NO_FILE: choose a CSV file first.');
  const rows = parseCsv(await file.text());
  const result = await api<ImportResult>('POST', `import?mode=${mode}`, { company: byId<HTMLSelectElement>('import-company').value, rows });
  byId('import-counts').textContent = `${result.mode}: ${result.total} rows; ${Object.entries(result.counts)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ')}`;
  fillTable(
    byId<HTMLTableElement>('import-outcomes'),
    ['Line', 'Action', 'Employee', 'Email', 'Username', 'Note'],
    result.outcomes.map((o) => [o.line, o.action, o.employeeRef, o.email, o.username, o.note]),
  );
  byId<HTMLButtonElement>('import-commit').disabled = mode !== 'preview';
  say(mode === 'preview' ? 'Preview ready: nothing was written. Check the outcomes, then commit.' : 'Import committed.', 'ok');
}

export function wireImport(): void {
  byId('import-file').addEventListener('change', () => {
    byId<HTMLButtonElement>('import-commit').disabled = true;
  });
  byId('import-preview').addEventListener(
    'click',
    guarded(() => run('preview')),
  );
  byId('import-commit').addEventListener(
    'click',
    guarded(() => run('commit')),
  );
}
