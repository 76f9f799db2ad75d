import type { GatewayRegistry, Logger } from '../kit/index.js';
import type { ConnectionStore } from './connection-store.js';
import type { DisconnectAnswer, DisconnectTarget } from './disconnect.js';

export interface SenderSettings {
  DISCONNECT_TIMEOUT_MS: number;
  DISCONNECT_ATTEMPTS: number;
  DISCONNECT_BACKOFF_MS: number;
}

export type Send = (target: DisconnectTarget, acctSessionId: string, timeoutMs: number) => Promise<DisconnectAnswer>;

/**
 * One pass over the due Disconnects: each is leased (so a crash mid-send retries it after the
 * lease), sent, and settled: ACK and NAK are final, silence retries with doubling backoff until
 * DISCONNECT_ATTEMPTS, then NO_ANSWER is recorded.
 */
export async function sendDueDisconnects(store: ConnectionStore, gateways: GatewayRegistry, send: Send, settings: SenderSettings, now: () => Date, log: Logger): Promise<number> {
  const at = now();
  const lease = new Date(at.getTime() + settings.DISCONNECT_TIMEOUT_MS * 2 + 1000);
  const due = await store.takeDue(at, lease, 32);
  await Promise.all(
    due.map(async (item) => {
      const gateway = gateways.get(item.nasId);
      const answer = gateway === undefined
        ? 'NO_ANSWER'
        : await send({ address: gateway.address, port: gateway.coaPort, secret: gateway.secret, nasId: gateway.nasId }, item.acctSessionId, settings.DISCONNECT_TIMEOUT_MS);
      log.info({ sessionId: item.sessionId, nasId: item.nasId, attempt: item.attempt, answer }, 'disconnect');
      if (answer === 'ACK' || answer === 'NAK') {
        await store.settle(item.nasId, item.acctSessionId, { status: answer === 'ACK' ? 'ACKED' : 'NAKED' }, now());
      } else if (gateway === undefined || item.attempt >= settings.DISCONNECT_ATTEMPTS) {
        await store.settle(item.nasId, item.acctSessionId, { status: 'NO_ANSWER' }, now());
      } else {
        await store.settle(item.nasId, item.acctSessionId, { retryAt: new Date(now().getTime() + settings.DISCONNECT_BACKOFF_MS * 2 ** (item.attempt - 1)) }, now());
      }
    }),
  );
  return due.length;
}
