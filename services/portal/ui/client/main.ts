/// <reference lib="dom" />
import { callApi } from './api.js';
import { renderDevices, wireDevices } from './devices.js';
import { renderErase, wireErase } from './erase.js';
import { clearFormMessages, wireForms } from './forms.js';
import { postLogin } from './gateway-hand-off.js';
import { setText, switchLanguage, type Language, type MessageKey } from './i18n.js';
import type { PortalSession, SessionState } from './portal-session.js';
import { renderAllowance, renderExpiry, renderSignedIn, stopCountdown } from './signed-in.js';
import { resetPhone, wirePhone } from './phone.js';
import { loadTerms, renderTerms, showAcceptances } from './terms.js';
import { hideUsedUp, renderUsedUp, showUsedUp } from './used-up.js';

type View = 'signin' | 'register' | 'employee' | 'voucher' | 'phone' | 'terms';
const VIEWS: readonly View[] = ['signin', 'register', 'employee', 'voucher', 'phone', 'terms'];

function byId(id: string): HTMLElement {
  return document.getElementById(id) as HTMLElement;
}

function viewFromHash(): View {
  const name = location.hash.slice(1);
  return (VIEWS as readonly string[]).includes(name) ? (name as View) : 'signin';
}

/** Shows one sign-in view; `focus` moves focus to its heading (after a user's navigation). */
function showAuth(focus: boolean): void {
  const view = viewFromHash();
  byId('loading').hidden = true;
  byId('signed-in').hidden = true;
  hideUsedUp();
  byId('auth').hidden = false;
  for (const name of VIEWS) byId(`view-${name}`).hidden = name !== view;
  for (const link of document.querySelectorAll<HTMLElement>('a[data-view]')) {
    if (link.dataset.view === view) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  if (focus) byId(`${view}-title`).focus();
}

function showStatus(key: MessageKey | null): void {
  setText(byId('status'), key);
}

let connectionPoll: ReturnType<typeof setTimeout> | undefined;

function showSignedIn(session: PortalSession, serverTime: number): void {
  clearFormMessages();
  resetPhone();
  hideUsedUp();
  byId('loading').hidden = true;
  byId('auth').hidden = true;
  byId('signed-in').hidden = false;
  setText(byId('signed-in-error'), null);
  renderSignedIn(session, serverTime, onSessionReread);
  renderErase(session);
  renderDevices(session);
  void showAcceptances();
  // Until the gateway confirms the device, ask again now and then.
  if (connectionPoll !== undefined) clearTimeout(connectionPoll);
  if (session.connection !== undefined && !session.connection.connected) {
    connectionPoll = setTimeout(() => {
      void callApi<SessionState>('GET', '/api/v1/auth/session').then((answer) => {
        if (answer.ok && answer.data.authenticated) showSignedIn(answer.data, answer.serverTime);
      });
    }, 2000);
  }
}

/**
 * A sign-in through a gateway ends with the device logging in there: the one-time
 * credential goes to the gateway's login URL as the gateway expects it (a form, so it works in the
 * OS captive window; the page's CSP allows exactly that URL).
 */
function logInAtGateway(gateway: NonNullable<PortalSession['gateway']>): void {
  // A controller whose login answers JSON (OPNsense) is posted from here; the person
  // stays on this page and is told the answer (the connection poll then shows the device online).
  // A browser that would not send it from script (no answer it may read) gets the form instead.
  if (gateway.handOff === 'script') {
    void postLogin(gateway.loginUrl, gateway.fields).then((outcome) => {
      if (outcome === 'blocked') submitForm(gateway);
      else if (outcome !== 'connected') setText(byId('signed-in-error'), outcome === 'refused' ? 'gateway.refused' : 'gateway.unreachable');
    });
    return;
  }
  submitForm(gateway);
}

function submitForm(gateway: NonNullable<PortalSession['gateway']>): void {
  const form = document.createElement('form');
  form.method = gateway.method.toLowerCase();
  form.action = gateway.loginUrl;
  for (const [name, value] of Object.entries(gateway.fields)) {
    const input = document.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = value;
    form.append(input);
  }
  form.hidden = true;
  document.body.append(form);
  form.submit();
}

function signedOut(key: MessageKey): void {
  stopCountdown();
  showStatus(key);
  if (location.hash !== '' && location.hash !== '#signin') history.replaceState(null, '', '#signin');
  showAuth(true);
}

/** At the countdown's zero (spec 2.7 expiresAt): keep going if the session was extended, else say it ended. */
function onSessionReread(state: SessionState, serverTime: number): void {
  const expiresAt = state.authenticated ? Date.parse(state.session.expiresAt ?? '') : Number.NaN;
  if (state.authenticated && expiresAt > serverTime) showSignedIn(state, serverTime);
  else signedOut('status.ended');
}

async function signOut(): Promise<void> {
  const answer = await callApi<{ ok: boolean }>('POST', '/api/v1/auth/logout');
  if (!answer.ok) {
    setText(byId('signed-in-error'), answer.status === 0 ? 'error.network' : 'error.signOut');
    return;
  }
  signedOut('status.signedOut');
}

function start(): void {
  const onSignedIn = (session: PortalSession, serverTime: number) => {
    showStatus(null);
    showSignedIn(session, serverTime);
    byId('signed-in-title').focus();
    if (session.gateway !== undefined) logInAtGateway(session.gateway);
  };
  wireForms(onSignedIn, showUsedUp);
  wirePhone(onSignedIn, showUsedUp);
  // The way back from the used-up page: a hash that does not change fires no hashchange.
  byId('used-up-back').addEventListener('click', (event) => {
    if (location.hash !== '#signin') return;
    event.preventDefault();
    showAuth(true);
  });
  byId('sign-out').addEventListener('click', () => void signOut());
  wireErase(() => signedOut('status.erased'));
  wireDevices();
  window.addEventListener('hashchange', () => {
    if (!byId('auth').hidden || !byId('used-up').hidden) {
      showStatus(null);
      showAuth(true);
    }
  });
  for (const link of document.querySelectorAll<HTMLAnchorElement>('a[data-lang]')) {
    link.addEventListener('click', (event) => {
      event.preventDefault();
      switchLanguage(link.dataset.lang as Language);
      renderExpiry();
      renderAllowance();
      renderTerms();
      renderUsedUp();
    });
  }
  void loadTerms();
  // Spec 4.1: the session read always answers 200; signed in shows the signed-in page at once.
  void callApi<SessionState>('GET', '/api/v1/auth/session').then((answer) => {
    if (answer.ok && answer.data.authenticated) showSignedIn(answer.data, answer.serverTime);
    else {
      showAuth(false);
      if (!answer.ok) setText(byId(`${viewFromHash()}-error`), answer.status === 0 ? 'error.network' : 'error.unknown');
    }
  });
}

start();
