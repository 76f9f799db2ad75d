import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { UI_LANGUAGES, type UiLanguage } from './language.js';

export interface Payload {
  body: Buffer;
  gzip: Buffer;
}

export interface Asset extends Payload {
  contentType: string;
}

/** A built UI held in memory: the index rendered once per language and the assets under hashed URLs. */
export interface BuiltUi {
  pages: Record<UiLanguage, Payload>;
  /** Keyed by URL path, e.g. `/ui/app.3f2a9c1d.js`. */
  assets: Map<string, Asset>;
}

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};
const ASSET_FILES = ['app.js', 'app.css', 'icon.svg'];

function payload(body: Buffer): Payload {
  return { body, gzip: gzipSync(body, { level: 9 }) };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * Fills the template: `{{lang}}`, `{{asset:<file>}}` (hashed URL), `{{current:<lang>}}`
 * (aria-current on the active language link) and `{{<key>}}` (escaped catalogue text). A key
 * missing from the catalogue is an error, so a bad template never serves.
 */
export function renderPage(template: string, language: UiLanguage, catalogue: Record<string, string>, assetUrls: Record<string, string>): string {
  return template.replace(/\{\{([^}]+)\}\}/g, (_match, token: string) => {
    if (token === 'lang') return language;
    if (token.startsWith('asset:')) {
      const url = assetUrls[token.slice(6)];
      if (url === undefined) throw new Error(`UI template names an unknown asset ${token.slice(6)}`);
      return url;
    }
    if (token.startsWith('current:')) return token.slice(8) === language ? 'aria-current="true"' : '';
    const text = catalogue[token];
    if (text === undefined) throw new Error(`UI catalogue ${language} has no key ${token}`);
    return escapeHtml(text);
  });
}

/** Reads a built UI directory (`npm run bundle:ui` writes one to dist/ui); throws when a file is missing. */
export function loadBuiltUi(rootDir: string): BuiltUi {
  const assets = new Map<string, Asset>();
  const assetUrls: Record<string, string> = {};
  for (const file of ASSET_FILES) {
    const body = readFileSync(join(rootDir, file));
    const extension = extname(file);
    const hash = createHash('sha256').update(body).digest('hex').slice(0, 12);
    const url = `/ui/${file.slice(0, -extension.length)}.${hash}${extension}`;
    assetUrls[file] = url;
    assets.set(url, { ...payload(body), contentType: CONTENT_TYPES[extension] ?? 'application/octet-stream' });
  }
  const template = readFileSync(join(rootDir, 'index.html'), 'utf8');
  const pages = {} as Record<UiLanguage, Payload>;
  for (const language of UI_LANGUAGES) {
    const catalogue = JSON.parse(readFileSync(join(rootDir, 'i18n', `${language}.json`), 'utf8')) as Record<string, string>;
    pages[language] = payload(Buffer.from(renderPage(template, language, catalogue, assetUrls)));
  }
  return { pages, assets };
}
