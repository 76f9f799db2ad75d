import { GatewayConnection } from '../../contract/gateway.js';
import type { PortalSessionData } from './portal-session-store.js';
import { replyOf, type Upstreams } from './upstreams.js';

export interface Connection {
  state: 'CONNECTING' | 'CONNECTED' | 'DISCONNECTED' | 'UNKNOWN';
  connected: boolean;
  inputOctets: number;
  outputOctets: number;
  sessionTime: number;
}

/**
 * A sign-in through a gateway is connected only once the gateway confirmed it
 * (accounting Start), with the time and data used so far; undefined for a sign-in without a
 * gateway (API mode, as before). A gateway service that cannot be asked reads UNKNOWN, never
 * connected.
 */
export async function connectionOf(upstreams: Upstreams, stored: PortalSessionData, correlationId: string): Promise<Connection | undefined> {
  if (stored.gateway === null) return undefined;
  // The gateway service's reply, parsed with the contract's shape: one that does not parse is UNKNOWN, never connected.
  const read = replyOf(GatewayConnection, await upstreams.readConnection(stored.networkSessionId, correlationId), [200]);
  if (read === undefined) return { state: 'UNKNOWN', connected: false, inputOctets: 0, outputOctets: 0, sessionTime: 0 };
  const state = read.connected ? 'CONNECTED' : read.state === 'DISCONNECTED' ? 'DISCONNECTED' : 'CONNECTING';
  return { state, connected: read.connected, inputOctets: read.inputOctets, outputOctets: read.outputOctets, sessionTime: read.sessionTime };
}
