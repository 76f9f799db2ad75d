import type { PortalSessionData } from './portal-session-store.js';
import type { Upstreams } from './upstreams.js';

export interface Connection {
  state: 'CONNECTING' | 'CONNECTED' | 'DISCONNECTED' | 'UNKNOWN';
  connected: boolean;
  inputOctets: number;
  outputOctets: number;
  sessionTime: number;
}

const count = (value: unknown): number => (typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : 0);

/**
 * Issue 17: a sign-in through a gateway is connected only once the gateway confirmed it
 * (accounting Start), with the time and data used so far; undefined for a sign-in without a
 * gateway (API mode, as before). A gateway service that cannot be asked reads UNKNOWN, never
 * connected.
 */
export async function connectionOf(upstreams: Upstreams, stored: PortalSessionData, correlationId: string): Promise<Connection | undefined> {
  if (stored.gateway === null) return undefined;
  const read = await upstreams.readConnection(stored.networkSessionId, correlationId);
  if (read.kind !== 'answer' || read.status !== 200) return { state: 'UNKNOWN', connected: false, inputOctets: 0, outputOctets: 0, sessionTime: 0 };
  const connected = read.body['connected'] === true;
  const state = connected ? 'CONNECTED' : read.body['state'] === 'DISCONNECTED' ? 'DISCONNECTED' : 'CONNECTING';
  return { state, connected, inputOctets: count(read.body['inputOctets']), outputOctets: count(read.body['outputOctets']), sessionTime: count(read.body['sessionTime']) };
}
