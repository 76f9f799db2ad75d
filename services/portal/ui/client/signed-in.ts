/// <reference lib="dom" />
import { callApi } from './api.js';
import { language, setText, type MessageKey } from './i18n.js';
import { allowanceFacts, formatBytes, formatLeft } from './allowance.js';
import { needsEmailVerification, type AllowanceLeft, type PortalSession, type SessionState } from './portal-session.js';

const PACKAGES: Record<string, MessageKey> = {
  WIFI_CUSTOMER_BASIC: 'package.WIFI_CUSTOMER_BASIC',
  WIFI_CUSTOMER_PLUS: 'package.WIFI_CUSTOMER_PLUS',
  WIFI_EMPLOYEE_PACKAGE: 'package.WIFI_EMPLOYEE_PACKAGE',
};
const TIERS: Record<string, MessageKey> = { BASIC: 'tier.BASIC', BOOST: 'tier.BOOST' };
const QOS: Record<string, MessageKey> = { STANDARD: 'qos.STANDARD', HIGH: 'qos.HIGH' };

function byId(id: string): HTMLElement {
  return document.getElementById(id) as HTMLElement;
}

/** A known value in the reader's language; an unknown one as sent; a missing one as "Not given". */
function showValue(element: HTMLElement, table: Record<string, MessageKey>, value: string | null | undefined): void {
  const key = value == null ? 'value.unknown' : table[value];
  if (key) setText(element, key);
  else {
    setText(element, null);
    element.textContent = String(value);
  }
}

let timer: ReturnType<typeof setTimeout> | undefined;
let clockOffset = 0;
let expiresAt: number | null = null;

export function stopCountdown(): void {
  if (timer !== undefined) clearTimeout(timer);
  timer = undefined;
}

/**
 * Behind a gateway the page says it is connecting until the gateway confirmed the
 * device (accounting Start), then shows the time and data used; without one, as before.
 */
function renderConnection(session: PortalSession): void {
  const connection = session.connection;
  const usage = byId('usage');
  usage.hidden = connection === undefined || !connection.connected;
  setText(byId('signed-in-title'), connection === undefined || connection.connected ? 'signedIn.title' : 'signedIn.connecting');
  setText(
    byId('connection-note'),
    connection === undefined || connection.connected ? null : connection.state === 'DISCONNECTED' ? 'signedIn.disconnected' : 'signedIn.connectingNote',
  );
  if (connection?.connected) {
    byId('data-used').textContent = formatBytes(connection.inputOctets + connection.outputOctets);
    byId('time-used').textContent = formatLeft(connection.sessionTime * 1000);
  }
}

let shownAllowance: AllowanceLeft | null | undefined;

/** The allowance's rows (called again on a language switch, for the renewal's wording). */
export function renderAllowance(): void {
  const facts = allowanceFacts(shownAllowance, language());
  byId('allowance').hidden = facts === undefined;
  if (facts === undefined) return;
  byId('allowance-time-row').hidden = facts.time === null;
  byId('allowance-time').textContent = facts.time ?? '';
  byId('allowance-data-row').hidden = facts.data === null;
  byId('allowance-data').textContent = facts.data ?? '';
  const renews = byId('allowance-renews');
  renews.setAttribute('datetime', shownAllowance?.renewsAt ?? '');
  renews.textContent = facts.renews;
}

/** Fills the signed-in page from a PortalSession (spec 2.4); `serverTime` is the answer's Date. */
export function renderSignedIn(session: PortalSession, serverTime: number, onEnded: (state: SessionState, serverTime: number) => void): void {
  const permission = session.entitlement.permission ?? {};
  byId('who').textContent = session.claims.preferred_username ?? '';
  byId('verify-note').hidden = !needsEmailVerification(session.claims);
  showValue(byId('fact-package'), PACKAGES, session.entitlement.entitlementType);
  showValue(byId('fact-tier'), TIERS, session.session.tier ?? permission.tier);
  showValue(byId('fact-qos'), QOS, session.session.qosClass ?? permission.qosClass);
  const devices = byId('fact-devices');
  if (typeof permission.deviceSlots === 'number') {
    setText(devices, null);
    devices.textContent = String(permission.deviceSlots);
  } else setText(devices, 'value.unknown');
  clockOffset = serverTime - Date.now();
  expiresAt = session.session.expiresAt === null ? null : Date.parse(session.session.expiresAt);
  setText(byId('time-note'), 'signedIn.atZero');
  renderConnection(session);
  shownAllowance = session.session.remaining;
  renderAllowance();
  renderExpiry();
  stopCountdown();
  tick(onEnded);
}

/** The clock time of the end, in the page's language (called again on a language switch). */
export function renderExpiry(): void {
  const until = byId('expires-at');
  if (expiresAt === null || Number.isNaN(expiresAt)) {
    setText(until, 'value.unknown');
    return;
  }
  setText(until, null);
  until.setAttribute('datetime', new Date(expiresAt).toISOString());
  until.textContent = new Date(expiresAt).toLocaleTimeString(language() === 'vi' ? 'vi-VN' : 'en-GB', { hour: '2-digit', minute: '2-digit' });
}

function tick(onEnded: (state: SessionState, serverTime: number) => void): void {
  const left = byId('time-left');
  if (expiresAt === null || Number.isNaN(expiresAt)) {
    setText(left, 'value.unknown');
    return;
  }
  const remaining = expiresAt - (Date.now() + clockOffset);
  left.textContent = formatLeft(remaining);
  if (remaining > 0) {
    timer = setTimeout(() => tick(onEnded), remaining % 1000 || 1000);
    return;
  }
  // At zero the network session may have been extended or ended: ask the portal again.
  setText(byId('time-note'), 'signedIn.checking');
  void callApi<SessionState>('GET', '/api/v1/auth/session').then((answer) => {
    if (answer.ok) onEnded(answer.data, answer.serverTime);
    else timer = setTimeout(() => tick(onEnded), 10_000);
  });
}
