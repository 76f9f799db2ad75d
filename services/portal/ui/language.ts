export type UiLanguage = 'en' | 'vi';

export const UI_LANGUAGES: readonly UiLanguage[] = ['vi', 'en'];
const FALLBACK: UiLanguage = 'en';

export function isUiLanguage(value: unknown): value is UiLanguage {
  return value === 'en' || value === 'vi';
}

/** The `lang` cookie's value when it names a UI language. */
export function languageCookie(cookieHeader: string | undefined): UiLanguage | undefined {
  for (const part of (cookieHeader ?? '').split(';')) {
    const [name, value] = part.split('=', 2).map((s) => s.trim());
    if (name === 'lang' && isUiLanguage(value)) return value;
  }
  return undefined;
}

/** Best supported language of an Accept-Language header (RFC 9110 12.5.4), by q-value then order. */
export function acceptedLanguage(header: string | undefined): UiLanguage | undefined {
  let best: { language: UiLanguage; q: number } | undefined;
  for (const range of (header ?? '').split(',')) {
    const [tag = '', ...params] = range.trim().toLowerCase().split(';');
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    const primary = tag.split('-')[0];
    if (!Number.isFinite(q) || q <= 0 || !isUiLanguage(primary)) continue;
    if (best === undefined || q > best.q) best = { language: primary, q };
  }
  return best?.language;
}

/** The first paint's language: the visitor's own choice (cookie), else the browser's, else English. */
export function chooseLanguage(cookieHeader: string | undefined, acceptLanguageHeader: string | undefined): UiLanguage {
  return languageCookie(cookieHeader) ?? acceptedLanguage(acceptLanguageHeader) ?? FALLBACK;
}
