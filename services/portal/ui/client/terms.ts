/// <reference lib="dom" />
import { callApi } from './api.js';
import { language } from './i18n.js';

/** The terms in force as the portal serves them (GET /api/v1/terms); null while none is published. */
export interface Terms {
  version: string;
  textVi: string;
  textEn: string;
  publishedAt: string;
}

let current: Terms | null = null;

/** The version the forms ask a tick for, or null (none published, or not read yet). */
export const termsVersion = (): string | null => current?.version ?? null;

/**
 * Reads the terms in force and shows the tick box on every form while a version is in force: the
 * portal cannot know who signs in before the credential is checked (and a phone code is used up
 * by then), so the box is asked for before sending.
 */
export async function loadTerms(): Promise<void> {
  const answer = await callApi<{ current: Terms | null }>('GET', '/api/v1/terms');
  current = answer.ok ? answer.data.current : null;
  for (const field of document.querySelectorAll<HTMLElement>('.field.terms')) field.hidden = current === null;
  renderTerms();
}

/** The text in the page's language, as plain text (an operator's text is never markup here). */
export function renderTerms(): void {
  const text = document.getElementById('terms-text') as HTMLElement;
  const version = document.getElementById('terms-version') as HTMLElement;
  text.textContent = current === null ? '' : language() === 'vi' ? current.textVi : current.textEn;
  text.lang = language();
  version.textContent = current?.version ?? '';
}

interface Acceptance {
  version: string;
  acceptedAt: string;
}

/** The signed-in page lists what the person accepted (version and date). */
export async function showAcceptances(): Promise<void> {
  const answer = await callApi<{ acceptances: Acceptance[] }>('GET', '/api/v1/me/terms');
  const box = document.getElementById('terms-accepted') as HTMLElement;
  const rows = answer.ok ? answer.data.acceptances : [];
  box.hidden = rows.length === 0;
  (document.getElementById('terms-accepted-list') as HTMLElement).textContent = rows
    .map((row) => `${row.version} (${new Date(row.acceptedAt).toLocaleDateString(language() === 'vi' ? 'vi-VN' : 'en-GB')})`)
    .join(', ');
}
