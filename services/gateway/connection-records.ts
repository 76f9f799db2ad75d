import type { GivenCaps } from './credential-store.js';
// What the parts of the gateway's connection store (connection-store.ts) share: the rows and
// records of table `connections`, and the key a connection of one NAS goes by in memory.

export type DisconnectStatus = 'PENDING' | 'ACKED' | 'NAKED' | 'GONE' | 'NO_ANSWER';

export interface Usage {
  nasId: string;
  acctSessionId: string;
  sessionId: string;
  usernameHash: string | null;
  status: 'Start' | 'Interim-Update' | 'Stop';
  inputOctets: number;
  outputOctets: number;
  sessionTime: number;
  /** The session's identifying attributes, sealed (null on a Stop: erased). */
  sealedIdentity: string | null;
  /** Acct-Terminate-Cause of a Stop, as the NAS named it. */
  stopCause: string | null;
  /** An 802.1X connection's device credential (its Chargeable-User-Identity) and calling station's keyed HMAC, when known. */
  deviceId?: string | null;
  stationRef?: string | null;
}

export interface ConnectionRecord {
  nasId: string;
  acctSessionId: string;
  sessionId: string;
  startedAt: Date;
  updatedAt: Date;
  stoppedAt: Date | null;
  inputOctets: number;
  outputOctets: number;
  sessionTime: number;
  disconnectStatus: DisconnectStatus | null;
  disconnectAttempts: number;
}

export interface ConnectionRow {
  nas_id: string;
  acct_session_id: string;
  session_id: string;
  started_at: Date;
  updated_at: Date;
  stopped_at: Date | null;
  input_octets: string | number;
  output_octets: string | number;
  session_time: number;
  disconnect_status: DisconnectStatus | null;
  disconnect_attempts: number;
  [column: string]: unknown;
}

export const toRecord = (row: ConnectionRow): ConnectionRecord => ({
  nasId: row.nas_id,
  acctSessionId: row.acct_session_id,
  sessionId: row.session_id,
  startedAt: row.started_at,
  updatedAt: row.updated_at,
  stoppedAt: row.stopped_at,
  inputOctets: Number(row.input_octets),
  outputOctets: Number(row.output_octets),
  sessionTime: row.session_time,
  disconnectStatus: row.disconnect_status,
  disconnectAttempts: row.disconnect_attempts,
});

/** A Disconnect-Request (or a CoA-Request, for a running session's new limits) to send now: the row was leased to this sender until its answer is due. */
export interface DueRequest {
  nasId: string;
  acctSessionId: string;
  sessionId: string;
  attempt: number;
  /** The sealed identifying attributes from accounting, if the connection still runs. */
  sealedIdentity: string | null;
  /** The connection's totals the session service's allowance counters acknowledged (octets, seconds). */
  counted: { octets: number; seconds: number };
  /** CoA queue only: the caps the latest Access-Accept of the session at this NAS gave (undefined: not recorded). */
  given?: GivenCaps;
}

export type CoaStatus = 'PENDING' | 'ACKED' | 'NAKED' | 'NO_ANSWER';

export type Counters = Pick<Usage, 'inputOctets' | 'outputOctets' | 'sessionTime'>;

/** A connection of one NAS, as the map keys it. */
export const keyOf = (nasId: string, acctSessionId: string) => `${nasId}\u0000${acctSessionId}`;
