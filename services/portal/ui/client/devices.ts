/// <reference lib="dom" />
import { callApi } from './api.js';
import { language, setText, type MessageKey } from './i18n.js';
import type { PortalSession } from './portal-session.js';

interface Device {
  deviceId: string;
  label: string;
  createdAt: string;
}

const HINTS = {
  apple: 'devices.hint.apple',
  android: 'devices.hint.android',
  windows: 'devices.hint.windows',
  linux: 'devices.hint.linux',
} as const satisfies Record<string, MessageKey>;
type Kind = keyof typeof HINTS;

function byId(id: string): HTMLElement {
  return document.getElementById(id) as HTMLElement;
}

let slots: number | undefined;
let shown: Device[] = [];

/** The kind the person picked (the page preselects the one its user agent names). */
function kind(): Kind {
  const value = (byId('device-kind') as HTMLSelectElement).value;
  return Object.hasOwn(HINTS, value) ? (value as Kind) : 'apple';
}

/** The link's address and the hint follow the kind; a full list disables the link (a new credential would be refused). */
function renderAdd(): void {
  const add = byId('device-add') as HTMLAnchorElement;
  add.href = `/api/v1/me/devices/profile?kind=${kind()}`;
  setText(byId('device-hint'), HINTS[kind()]);
  const full = slots !== undefined && shown.length >= slots;
  if (full) add.setAttribute('aria-disabled', 'true');
  else add.removeAttribute('aria-disabled');
  setText(byId('device-slots'), slots === undefined ? null : full ? 'devices.full' : 'devices.slots', {
    used: String(shown.length),
    slots: String(slots),
  });
}

function renderList(): void {
  const list = byId('device-list');
  list.replaceChildren();
  byId('devices-none').hidden = shown.length > 0;
  for (const device of shown) {
    const item = document.createElement('li');
    const text = document.createElement('span');
    const date = new Date(device.createdAt).toLocaleString(language() === 'vi' ? 'vi-VN' : 'en-GB', { dateStyle: 'short', timeStyle: 'short' });
    text.textContent = `${device.label} · `;
    const added = document.createElement('span');
    setText(added, 'devices.added', { date });
    text.append(added);
    const remove = document.createElement('button');
    remove.type = 'button';
    remove.className = 'secondary';
    setText(remove, 'devices.remove');
    // The button is named "Remove" and described by its row, so a screen reader says which device.
    text.id = `device-${device.deviceId}`;
    remove.setAttribute('aria-describedby', text.id);
    remove.addEventListener('click', () => void removeDevice(device.deviceId));
    item.append(text, remove);
    list.append(item);
  }
  renderAdd();
}

async function loadDevices(): Promise<void> {
  const answer = await callApi<{ devices: Device[] }>('GET', '/api/v1/me/devices');
  if (!answer.ok) {
    setText(byId('devices-error'), answer.status === 0 ? 'error.network' : 'error.devices');
    return;
  }
  shown = answer.data.devices;
  renderList();
}

async function removeDevice(deviceId: string): Promise<void> {
  const answer = await callApi<Record<string, never>>('DELETE', `/api/v1/me/devices/${encodeURIComponent(deviceId)}`);
  if (!answer.ok && answer.status !== 404) {
    setText(byId('devices-error'), answer.status === 0 ? 'error.network' : 'error.devices');
    return;
  }
  setText(byId('devices-error'), null);
  shown = shown.filter((device) => device.deviceId !== deviceId);
  renderList();
  setText(byId('device-slots'), 'devices.removed');
  byId('device-list-title').focus();
}

/** The devices part of the signed-in page, for this sign-in (its slots are the entitlement's). */
export function renderDevices(session: PortalSession): void {
  const permission = session.entitlement.permission ?? {};
  slots = typeof permission.deviceSlots === 'number' ? permission.deviceSlots : undefined;
  setText(byId('devices-error'), null);
  shown = [];
  renderList();
  void loadDevices();
}

export function wireDevices(): void {
  const select = byId('device-kind') as HTMLSelectElement;
  if (/Android/i.test(navigator.userAgent)) select.value = 'android';
  else if (/iPhone|iPad|Macintosh/i.test(navigator.userAgent)) select.value = 'apple';
  else if (/Windows NT/i.test(navigator.userAgent)) select.value = 'windows';
  else if (/Linux|X11/i.test(navigator.userAgent)) select.value = 'linux';
  select.addEventListener('change', renderAdd);
  // The download (or Android's installer) is a navigation the page cannot watch: the list is read
  // again when the page is looked at next, which is after the file arrived.
  byId('device-add').addEventListener('click', () => {
    setText(byId('devices-error'), null);
    window.setTimeout(() => void loadDevices(), 1500);
  });
  window.addEventListener('focus', () => {
    if (!byId('signed-in').hidden) void loadDevices();
  });
  renderAdd();
}
