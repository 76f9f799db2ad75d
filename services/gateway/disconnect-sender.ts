import { CONTROLLER_PROFILES } from '../../edge/controllers/index.js';
import { newCorrelationId, type Logger } from '../kit/index.js';
import type { Gateway, GatewayRegistry } from '../../edge/index.js';
import { exceedsAllowance, runningLimitAttributes, secondsLeft, type AccessDeps } from './access.js';
import type { SessionIdentity } from './accounting.js';
import type { ConnectionStore, DueRequest } from './connection-store.js';
import { radiusCoas, radiusDisconnects } from './metrics.js';
import type { SessionPeer } from './session-client.js';
import { SESSION_CONTEXT_NOT_FOUND, type DisconnectAttributes, type DisconnectReply, type DisconnectTarget } from './disconnect.js';

export interface SenderSettings {
  DISCONNECT_TIMEOUT_MS: number;
  DISCONNECT_ATTEMPTS: number;
  DISCONNECT_BACKOFF_MS: number;
}

/** Disconnects taken in one pass; a full batch means more may be due at once. */
export const DISCONNECT_BATCH = 32;

export type Send = (target: DisconnectTarget, attributes: DisconnectAttributes, timeoutMs: number) => Promise<DisconnectReply>;

/**
 * A Disconnect-Request as the gateway's controller needs it to find the session: its
 * Acct-Session-Id always, and each attribute its profile names, as the NAS itself sent it in
 * accounting (NAS-Identifier falls back to the registry's NAS id; Event-Timestamp is now).
 */
export function disconnectAttributes(gateway: Gateway, item: DueRequest, identity: SessionIdentity, at: Date): DisconnectAttributes {
  const attributes: DisconnectAttributes = [['Acct-Session-Id', item.acctSessionId]];
  for (const name of CONTROLLER_PROFILES[gateway.profile].disconnect) {
    if (name === 'Acct-Session-Id') continue;
    if (name === 'Event-Timestamp') attributes.push([name, at]);
    else if (name === 'NAS-Identifier') attributes.push([name, identity['NAS-Identifier'] ?? gateway.nasId]);
    else if (identity[name] !== undefined) attributes.push([name, identity[name]]);
  }
  return attributes;
}

/**
 * One pass over the due Disconnects: each is leased (so a crash mid-send retries it after the
 * lease), sent, and settled: ACK and NAK are final (a NAK with Error-Cause 503 means the NAS has
 * no such session: GONE), silence retries with doubling backoff until DISCONNECT_ATTEMPTS, then
 * NO_ANSWER is recorded.
 */
export async function sendDueDisconnects(
  store: ConnectionStore,
  gateways: GatewayRegistry,
  open: (sealed: string) => string,
  send: Send,
  settings: SenderSettings,
  now: () => Date,
  log: Logger,
): Promise<number> {
  const at = now();
  const lease = new Date(at.getTime() + settings.DISCONNECT_TIMEOUT_MS * 2 + 1000);
  const due = await store.takeDue(at, lease, DISCONNECT_BATCH);
  await Promise.all(
    due.map(async (item) => {
      const gateway = gateways.get(item.nasId);
      const identity = item.sealedIdentity === null ? {} : (JSON.parse(open(item.sealedIdentity)) as SessionIdentity);
      // No RADIUS secret (openNDS) or no RFC 5176 listener (OPNsense): nothing would answer, so
      // nothing is sent and the first attempt is the last (the session ends at its Session-Timeout).
      const unanswerable = gateway?.secret === undefined || CONTROLLER_PROFILES[gateway.profile].disconnectListener === false;
      const reply: DisconnectReply =
        unanswerable || gateway?.secret === undefined
          ? { answer: 'NO_ANSWER' }
          : await send(
              { address: gateway.address, port: gateway.coaPort, secret: gateway.secret },
              disconnectAttributes(gateway, item, identity, at),
              settings.DISCONNECT_TIMEOUT_MS,
            );
      log.info({ sessionId: item.sessionId, nasId: item.nasId, attempt: item.attempt, answer: reply.answer, errorCause: reply.errorCause }, 'disconnect');
      const nas = gateway === undefined ? 'unknown' : item.nasId;
      if (reply.answer === 'ACK' || reply.answer === 'NAK') {
        const status = reply.answer === 'ACK' ? 'ACKED' : reply.errorCause === SESSION_CONTEXT_NOT_FOUND ? 'GONE' : 'NAKED';
        await store.settle(item.nasId, item.acctSessionId, { status }, now());
        radiusDisconnects.inc({ nas, answer: status });
      } else if (unanswerable || item.attempt >= settings.DISCONNECT_ATTEMPTS) {
        await store.settle(item.nasId, item.acctSessionId, { status: 'NO_ANSWER' }, now());
        radiusDisconnects.inc({ nas, answer: 'NO_ANSWER' });
      } else {
        await store.settle(
          item.nasId,
          item.acctSessionId,
          { retryAt: new Date(now().getTime() + settings.DISCONNECT_BACKOFF_MS * 2 ** (item.attempt - 1)) },
          now(),
        );
        radiusDisconnects.inc({ nas, answer: 'retry' });
      }
    }),
  );
  return due.length;
}

/**
 * One pass over the due CoA-Requests (a running session's limits changed). The
 * session is read again when the request goes out, so it carries the limits in force then (only
 * connections at controllers that take a CoA or a Disconnect are queued, see feed-follower.ts); a
 * session that ended meanwhile drops its CoA (its Disconnect comes through the feed). Sent only to
 * controllers whose profile takes a CoA, naming the session as its Disconnect would, with the
 * limit attributes of an Access-Accept. At a controller without CoA the entry is a limit check:
 * a Disconnect when the caps its Accept gave pass what the person has left (`exceedsAllowance`),
 * else nothing. ACK and NAK are final; silence and an unavailable session service retry with
 * doubling backoff, up to DISCONNECT_ATTEMPTS.
 */
export async function sendDueCoas(
  store: ConnectionStore,
  gateways: GatewayRegistry,
  open: (sealed: string) => string,
  peer: SessionPeer,
  send: Send,
  settings: SenderSettings & AccessDeps['settings'],
  now: () => Date,
  log: Logger,
): Promise<number> {
  const at = now();
  const lease = new Date(at.getTime() + settings.DISCONNECT_TIMEOUT_MS * 2 + 1000);
  const due = await store.takeDueCoa(at, lease, DISCONNECT_BATCH);
  const retryOrGiveUp = async (item: DueRequest, nas: string) => {
    if (item.attempt >= settings.DISCONNECT_ATTEMPTS) {
      await store.settleCoa(item.nasId, item.acctSessionId, { status: 'NO_ANSWER' });
      radiusCoas.inc({ nas, answer: 'NO_ANSWER' });
    } else {
      await store.settleCoa(item.nasId, item.acctSessionId, { retryAt: new Date(now().getTime() + settings.DISCONNECT_BACKOFF_MS * 2 ** (item.attempt - 1)) });
      radiusCoas.inc({ nas, answer: 'retry' });
    }
  };
  await Promise.all(
    due.map(async (item) => {
      const gateway = gateways.get(item.nasId);
      const nas = gateway === undefined ? 'unknown' : item.nasId;
      const drop = async () => {
        await store.settleCoa(item.nasId, item.acctSessionId, { status: null });
        radiusCoas.inc({ nas, answer: 'dropped' });
      };
      // openNDS (no RADIUS secret) never gets a CoA queued; an entry changed to it since is dropped.
      if (gateway === undefined || gateway.secret === undefined || item.sealedIdentity === null) return drop();
      const lookup = await peer.read(item.sessionId, newCorrelationId());
      if (lookup.kind === 'unavailable') return retryOrGiveUp(item, nas);
      const seconds = lookup.kind === 'found' ? secondsLeft(lookup.session, now()) : 0;
      if (lookup.kind !== 'found' || lookup.session.state !== 'GRANTED' || !(seconds > 0)) return drop();
      if (!CONTROLLER_PROFILES[gateway.profile].coa) {
        // No CoA lowers this controller's caps: a connection whose Accept gave more than the
        // person has left now is disconnected, so the next authentication carries the lower limit.
        if (!exceedsAllowance(gateway, lookup.session, item.counted, item.given)) return drop();
        await store.disconnectInstead(item.nasId, item.acctSessionId, now());
        log.info({ sessionId: item.sessionId, nasId: item.nasId }, 'allowance below the caps given: disconnect');
        radiusCoas.inc({ nas, answer: 'disconnect' });
        return;
      }
      const identity = JSON.parse(open(item.sealedIdentity)) as SessionIdentity;
      const attributes: DisconnectAttributes = [
        ...disconnectAttributes(gateway, item, identity, at),
        ...Object.entries(runningLimitAttributes(settings, gateway, lookup.session, seconds, item.counted)),
      ];
      const reply = await send({ address: gateway.address, port: gateway.coaPort, secret: gateway.secret }, attributes, settings.DISCONNECT_TIMEOUT_MS);
      log.info({ sessionId: item.sessionId, nasId: item.nasId, attempt: item.attempt, answer: reply.answer, errorCause: reply.errorCause }, 'coa');
      if (reply.answer === 'NO_ANSWER') return retryOrGiveUp(item, nas);
      const status = reply.answer === 'ACK' ? 'ACKED' : 'NAKED';
      await store.settleCoa(item.nasId, item.acctSessionId, { status });
      radiusCoas.inc({ nas, answer: status });
    }),
  );
  return due.length;
}
