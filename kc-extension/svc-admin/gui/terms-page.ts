/// <reference lib="dom" />
import { api } from './api.js';
import { button, byId, fillTable, guarded, say } from './dom.js';

interface TermsVersion {
  version: string;
  textVi: string;
  textEn: string;
  publishedAt: string;
  publishedBy: string;
}

const form = (): HTMLFormElement => byId<HTMLFormElement>('terms-form');
const field = (name: string): HTMLInputElement | HTMLTextAreaElement => form().elements.namedItem(name) as HTMLInputElement | HTMLTextAreaElement;

/** A published version is never changed: "Start from" copies its text into the form for a new version. */
function startFrom(terms: TermsVersion): void {
  field('version').value = '';
  field('textVi').value = terms.textVi;
  field('textEn').value = terms.textEn;
  field('version').focus();
}

export async function loadTerms(): Promise<void> {
  const { versions } = await api<{ versions: TermsVersion[] }>('GET', 'terms');
  fillTable(
    byId<HTMLTableElement>('terms'),
    ['Version', 'In force', 'Published', 'English', 'Actions'],
    versions.map((terms, index) => {
      const actions = document.createElement('span');
      actions.append(
        button(`Start from ${terms.version}`, () => startFrom(terms)),
        ' ',
        button(
          `Withdraw ${terms.version}`,
          guarded(async () => {
            if (!confirm(`Withdraw ${terms.version}? The version before it is in force again; acceptances stay on record.`)) return;
            await api('DELETE', `terms/${encodeURIComponent(terms.version)}`);
            say(`${terms.version} withdrawn.`, 'ok');
            await loadTerms();
          }),
        ),
      );
      const preview = terms.textEn.length > 80 ? `${terms.textEn.slice(0, 80)}…` : terms.textEn;
      return [terms.version, index === 0 ? 'yes' : 'no', `${terms.publishedAt} by ${terms.publishedBy}`, preview, actions];
    }),
  );
}

export function wireTerms(): void {
  form().addEventListener(
    'submit',
    guarded(async (event: SubmitEvent) => {
      event.preventDefault();
      const version = field('version').value;
      await api('POST', 'terms', { version, textVi: field('textVi').value, textEn: field('textEn').value });
      say(`Version ${version} published: guests accept it at their next sign-in.`, 'ok');
      form().reset();
      await loadTerms();
    }),
  );
}
