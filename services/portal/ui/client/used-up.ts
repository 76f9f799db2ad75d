/// <reference lib="dom" />
import type { ApiFailure } from './api.js';
import { renewalText } from './allowance.js';
import { usedUpRenewal } from './error-text.js';
import { language } from './i18n.js';

let shown: string | null = null;

/** The time on the page, in the page's language (called again on a language switch). */
export function renderUsedUp(): void {
  const time = document.getElementById('used-up-renews') as HTMLElement;
  time.setAttribute('datetime', shown ?? '');
  time.textContent = shown === null ? '' : renewalText(shown, language());
}

/**
 * A sign-in refused because nothing is left gets a page of its own saying when access renews
 * (never a silent failure, never a generic error); answers whether the refusal was shown there.
 */
export function showUsedUp(failure: ApiFailure): boolean {
  shown = usedUpRenewal(failure);
  if (shown === null) return false;
  renderUsedUp();
  (document.getElementById('auth') as HTMLElement).hidden = true;
  (document.getElementById('used-up') as HTMLElement).hidden = false;
  (document.getElementById('used-up-title') as HTMLElement).focus();
  return true;
}

/** Leaves the page (back to the sign-in views). */
export function hideUsedUp(): void {
  shown = null;
  (document.getElementById('used-up') as HTMLElement).hidden = true;
}
