/// <reference lib="dom" />
import { api } from './api.js';
import { byId, fillTable, guarded } from './dom.js';

interface EventEntry {
  at: string;
  company: string;
  type: string;
  outcome: string;
  detail?: string;
}

export async function loadEvents(): Promise<void> {
  const { events } = await api<{ events: EventEntry[] }>('GET', 'events?limit=200');
  fillTable(
    byId<HTMLTableElement>('events'),
    ['At', 'Company', 'Type', 'Outcome', 'Detail'],
    events.map((e) => [e.at, e.company, e.type, e.outcome, e.detail]),
  );
}

export function wireEvents(): void {
  byId('events-refresh').addEventListener('click', guarded(loadEvents));
}
