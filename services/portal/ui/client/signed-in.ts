/// <reference lib="dom" />
import { callApi } from './api.js';
import { language, setText, type MessageKey } from './i18n.js';
import { needsEmailVerification, type PortalSession, type SessionState } from './portal-session.js';

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

function formatLeft(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  return `${hours}:${String(minutes).padStart(2, '0')}:${String(seconds).padStart(2, '0')}`;
}

export function stopCountdown(): void {
  if (timer !== undefined) clearTimeout(timer);
  timer = undefined;
}

/** Bytes as a person reads them (1,000-based, as operators bill). */
function formatBytes(bytes: number): string {
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
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
