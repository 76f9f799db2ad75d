/// <reference lib="dom" />
import { session, SIGNED_OUT } from './api.js';
import { loadCompanies, wireCompanies } from './companies-page.js';
import { loadDmn, wireDmn } from './dmn-page.js';
import { byId, guarded, say } from './dom.js';
import { loadEvents, wireEvents } from './events-page.js';
import { wireImport } from './import-page.js';
import { finishSignIn, startSignIn } from './sign-in.js';
import { loadVouchers, wireVouchers } from './vouchers-page.js';
import { adoptStyleNonce } from './style-nonce.js';
import { loadTerms, wireTerms } from './terms-page.js';
import { loadAudit, loadPersons, wireAudit, wirePersons } from './persons-page.js';

/**
 * The svc-admin GUI (spec 4.7), served from the module's own origin: it talks only to Keycloak
 * (sign-in) and to the module's /api/*.
 */
adoptStyleNonce();

const PAGES = {
  companies: loadCompanies,
  import: loadCompanies,
  events: loadEvents,
  dmn: loadDmn,
  vouchers: loadVouchers,
  terms: loadTerms,
  persons: loadPersons,
  audit: loadAudit,
} as const;
type Page = keyof typeof PAGES;
const isPage = (name: string | undefined): name is Page => name !== undefined && name in PAGES;

function render(): void {
  const signedIn = session.token() !== null;
  byId('signin').hidden = signedIn;
  byId('signout').hidden = !signedIn;
  byId('nav').hidden = !signedIn;
  if (!signedIn) for (const page of Object.keys(PAGES)) byId(`page-${page}`).hidden = true;
}

async function open(page: Page): Promise<void> {
  byId('message').hidden = true;
  for (const name of Object.keys(PAGES)) byId(`page-${name}`).hidden = name !== page;
  for (const link of document.querySelectorAll<HTMLButtonElement>('nav button')) {
    if (link.dataset['page'] === page) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  await PAGES[page]();
}

window.addEventListener(SIGNED_OUT, render);
byId('signin').addEventListener('click', guarded(startSignIn));
byId('signout').addEventListener('click', () => {
  session.end();
  render();
  say('Signed out.', 'ok');
});
for (const link of document.querySelectorAll<HTMLButtonElement>('nav button')) {
  const page = link.dataset['page'];
  if (isPage(page))
    link.addEventListener(
      'click',
      guarded(() => open(page)),
    );
}
wireCompanies();
wireImport();
wireEvents();
wireDmn();
wireVouchers();
wireTerms();
wirePersons();
wireAudit();

const params = new URLSearchParams(location.search);
const signIn = params.has('code') || params.has('error') ? finishSignIn(params).then(session.keep) : Promise.resolve();
signIn.then(
  () => {
    render();
    if (session.token() !== null) void guarded(() => open('companies'))();
  },
  (error: unknown) => {
    render();
    say(error instanceof Error ? error.message : String(error), 'error');
  },
);
