/// <reference lib="dom" />
import en from '../i18n/en.json' with { type: 'json' };
import vi from '../i18n/vi.json' with { type: 'json' };

// Every text of the UI comes from one catalogue per language (services/portal/ui/i18n/).
export type MessageKey = keyof typeof en;
export type Language = 'en' | 'vi';

const catalogues: Record<Language, Record<MessageKey, string>> = { en, vi };
let current: Language = document.documentElement.lang === 'vi' ? 'vi' : 'en';

export function language(): Language {
  return current;
}

/** A catalogue text in the current language, its `{name}` places filled from `values`. */
export function t(key: MessageKey, values: Record<string, string> = {}): string {
  return catalogues[current][key].replace(/\{([a-z]+)\}/g, (place, name: string) => values[name] ?? place);
}

/**
 * Shows a catalogue text in an element and remembers its key (and the values of its places), so
 * a language switch re-translates it.
 */
export function setText(element: HTMLElement, key: MessageKey | null, values?: Record<string, string>): void {
  if (key === null) {
    element.removeAttribute('data-i18n');
    element.removeAttribute('data-i18n-values');
    element.textContent = '';
    return;
  }
  element.setAttribute('data-i18n', key);
  if (values === undefined) element.removeAttribute('data-i18n-values');
  else element.setAttribute('data-i18n-values', JSON.stringify(values));
  element.textContent = t(key, values);
}

/** Switches every text on the page in place (the server painted the first language, see ui/language.ts). */
export function switchLanguage(next: Language): void {
  current = next;
  document.documentElement.lang = next;
  for (const element of document.querySelectorAll<HTMLElement>('[data-i18n]')) {
    const values = element.dataset.i18nValues === undefined ? undefined : (JSON.parse(element.dataset.i18nValues) as Record<string, string>);
    element.textContent = t(element.dataset.i18n as MessageKey, values);
  }
  for (const element of document.querySelectorAll<HTMLElement>('[data-i18n-aria-label]')) {
    element.setAttribute('aria-label', t(element.dataset.i18nAriaLabel as MessageKey));
  }
  for (const link of document.querySelectorAll<HTMLElement>('a[data-lang]')) {
    if (link.dataset.lang === next) link.setAttribute('aria-current', 'true');
    else link.removeAttribute('aria-current');
  }
  // A first-party cookie only: the captive-network window keeps no third-party cookies and may drop storage.
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is missing from the captive-portal browsers of iOS and older Android.
  document.cookie = `lang=${next}; Path=/; Max-Age=31536000; SameSite=Strict`;
}
