import { createSealer, createServiceApp, healthRoute, type Logger, type ServiceInstance } from '../kit/index.js';
import { loadGatewayRegistry } from '../../edge/index.js';
import { openDatabase, startPurgeJob, storeReadiness, type Database } from '../kit/store/index.js';
import { every } from './background.js';
import type { GatewayConfig } from './config.js';
import { createConnectionStore } from './connection-store.js';
import { copyRoutes } from './copy-routes.js';
import { eraseRoutes } from './erase-routes.js';
import { createCredentialStore } from './credential-store.js';
import { createDeviceCredentialStore } from './device-credentials.js';
import { deviceRadiusRoutes, deviceRoutes } from './device-routes.js';
import { sendCoa, sendDisconnect } from './disconnect.js';
import { CONTROLLER_PROFILES } from '../../edge/controllers/index.js';
import { DISCONNECT_BATCH, sendDueCoas, sendDueDisconnects, type Send } from './disconnect-sender.js';
import { followContinuously } from './feed-follower.js';
import { countOpenConnectionsWith } from './metrics.js';
import { accountingFastPath, accountingHandler, radiusRoutes } from './radius-routes.js';
import { createOpenndsStore } from './opennds-store.js';
import { openndsRoutes } from './opennds-routes.js';
import { gatewayRetention } from './retention.js';
import { portalRoutes } from './routes.js';
import { sessionPeer, type SessionPeer } from './session-client.js';
import { createUsageFeedStore, pushUsage } from './usage-feed.js';

export interface GatewayDeps {
  /** An open, migrated database; opened from the configuration when absent. */
  db?: Database;
  now?: () => Date;
  peer?: SessionPeer;
  send?: Send;
  /** How CoA-Requests go out (tests may replace it). */
  sendCoa?: Send;
}

export const MIGRATIONS = new URL('./migrations/', import.meta.url);

/**
 * Gateway service (port 3004): one-time credentials for the portal, the endpoints
 * FreeRADIUS's rest module calls, and the follower of the session change feed that sends RFC 5176
 * Disconnect-Requests.
 */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: the composition root: every part of the service wired in one place, in start order
export async function createApp(config: GatewayConfig, logger: Logger, deps: GatewayDeps = {}): Promise<ServiceInstance> {
  const sealer = createSealer(config.GATEWAY_SEAL_KEY);
  const gateways = loadGatewayRegistry(config.GATEWAYS_FILE, sealer);
  const db = deps.db ?? (await openDatabase('gateway', config, MIGRATIONS));
  const now = deps.now ?? (() => new Date());
  const peer = deps.peer ?? sessionPeer(config);
  const credentials = createCredentialStore(db);
  let kickSender: () => void = () => undefined;
  // Connections known running are forgotten once they would count as stale.
  const staleAfterMs = (config.ACCT_INTERIM_SECONDS * 2 + config.STALE_GRACE_SECONDS) * 1000;
  const connections = createConnectionStore(db, {
    onDisconnectQueued: () => kickSender(),
    interimFlushMs: config.INTERIM_FLUSH_MS,
    forgetAfterMs: staleAfterMs,
    onFlushError: (error) => logger.warn({ err: error }, 'Interim-Update counters not written; kept for the next write'),
  });
  countOpenConnectionsWith(() => connections.openPerNas());
  const access = { gateways, credentials, peer, now, settings: config };
  const devices = {
    access,
    devices: createDeviceCredentialStore(db),
    key: config.DEVICE_CREDENTIAL_KEY,
    realm: config.EAP_REALM,
    maxPerSession: config.DEVICE_CREDENTIALS_PER_SESSION,
  };
  // The sender runs when something is queued (kicked) or due, not on a clock.
  const open = (sealed: string) => sealer.open(sealed);
  const sender = every(
    config.DISCONNECT_IDLE_CHECK_MS,
    async () => {
      // Nothing due yet: no lease is taken (on PGlite, an idle look at a known-empty queue runs no statement).
      const due = await connections.nextDueAt();
      if (due === undefined || due > now()) return due === undefined ? undefined : due.getTime() - now().getTime();
      const disconnects = await sendDueDisconnects(connections, gateways, open, deps.send ?? sendDisconnect, config, now, logger);
      const coas = await sendDueCoas(connections, gateways, open, peer, deps.sendCoa ?? sendCoa, config, now, logger);
      if (disconnects >= DISCONNECT_BATCH || coas >= DISCONNECT_BATCH) return 0;
      const next = await connections.nextDueAt();
      return next === undefined ? undefined : next.getTime() - now().getTime();
    },
    logger,
    'disconnect',
  );
  kickSender = () => sender.kick();
  // Where a running session's new limits go: a CoA-Request where the profile takes one; else, at a
  // RADIUS controller with a Disconnect listener, a limit check that disconnects a connection whose
  // Accept gave more than a shrunk allowance leaves (disconnect-sender.ts).
  const coaNasIds = [...gateways.values()]
    .filter((gateway) => {
      const profile = CONTROLLER_PROFILES[gateway.profile];
      return profile.coa || (gateway.secret !== undefined && profile.disconnectListener !== false);
    })
    .map((gateway) => gateway.nasId);
  // A connection whose NAS fell silent (two interim intervals and a grace) is over.
  const sweeper = every(
    config.STALE_CHECK_MS,
    async () => {
      const closed = await connections.closeStale(new Date(now().getTime() - staleAfterMs), now());
      if (closed > 0) logger.info({ closed }, 'stale connections closed');
    },
    logger,
    'stale',
  );
  const purge = startPurgeJob({ db, service: 'gateway', rules: gatewayRetention(config), settings: config, now, logger });
  // A held read that ran out brings the sweep and the sender's idle look along.
  const follower = followContinuously(
    connections,
    peer,
    now,
    config,
    () => sender.kick(),
    logger,
    coaNasIds,
    () => {
      sender.kick();
      sweeper.kick();
    },
  );
  // The usage feed looks for new usage only after accounting or an openNDS report (and once at
  // start, for what an earlier run left unsent): an idle gateway runs no statement for it.
  let usageWaiting = true;
  const usageStore = createUsageFeedStore(db);
  const usageFeed = every(
    config.USAGE_PUSH_MS,
    async () => {
      if (!usageWaiting) return undefined;
      usageWaiting = false;
      // A pass that failed (its store, a broken answer) leaves the usage waiting for the next.
      const outcome = await pushUsage(
        { store: usageStore, peer, flush: () => connections.flush(), now, onDisconnectQueued: () => sender.kick(), logger },
        `usage-${now().getTime()}`,
      ).catch((error: unknown) => {
        usageWaiting = true;
        throw error;
      });
      if (outcome !== 'done') usageWaiting = true;
      return outcome === 'more' ? 0 : undefined;
    },
    logger,
    'usage',
  );
  const recordAccountingOf = accountingHandler(access, connections, (text) => sealer.seal(text), logger, config.ACCT_DELAY_MAX_SECONDS);
  const accounting: typeof recordAccountingOf = async (context) => {
    await recordAccountingOf(context);
    usageWaiting = true;
  };
  const openndsStore = createOpenndsStore(db);
  const deauthed = openndsStore.deauthed.bind(openndsStore);
  openndsStore.deauthed = async (...args) => {
    const sessionId = await deauthed(...args);
    usageWaiting = true;
    return sessionId;
  };
  const runningUsage = openndsStore.runningUsage.bind(openndsStore);
  openndsStore.runningUsage = async (...args) => {
    const written = await runningUsage(...args);
    if (written > 0) usageWaiting = true;
    return written;
  };
  const app = createServiceApp({
    service: 'gateway',
    logger,
    // An Interim-Update per connection and interval: its request line only at debug.
    quietPaths: ['/radius/accounting'],
    routes: [
      healthRoute(
        'gateway',
        storeReadiness(db, 'gateway', () => ({ gateways: gateways.size })),
      ),
      ...copyRoutes(config.GATEWAY_API_KEYS, connections),
      ...eraseRoutes(
        config.GATEWAY_API_KEYS,
        db,
        () => connections.flush(),
        () => sender.kick(),
        now,
      ),
      ...portalRoutes({
        apiKeys: config.GATEWAY_API_KEYS,
        gateways,
        credentials,
        connections,
        peer,
        now,
        credentialKey: config.CREDENTIAL_KEY,
        ttlSeconds: config.CREDENTIAL_TTL_SECONDS,
      }),
      ...openndsRoutes({
        apiKeys: config.GATEWAY_API_KEYS,
        gateways,
        store: openndsStore,
        ended: (sessionId) => credentials.ended(sessionId),
        peer,
        now,
        qos: config.QOS_TABLE,
        pollFreshSeconds: config.OPENNDS_POLL_FRESH_SECONDS,
        signatureWindowSeconds: config.OPENNDS_SIGNATURE_WINDOW_SECONDS,
        usageSeconds: config.OPENNDS_USAGE_SECONDS,
        logger,
      }),
      ...radiusRoutes(config.RADIUS_API_KEY, access, accounting),
      ...deviceRoutes(devices, config.GATEWAY_API_KEYS),
      ...deviceRadiusRoutes(config.RADIUS_API_KEY, devices),
    ],
  });
  return {
    app,
    // FreeRADIUS's accounting (every Interim-Update) skips the Express stack.
    fastPath: accountingFastPath(config.RADIUS_API_KEY, accounting, logger),
    async close() {
      await Promise.all([follower.stop(), sender.stop(), sweeper.stop(), purge.stop(), usageFeed.stop()]);
      await connections.flush();
      countOpenConnectionsWith(undefined);
      if (!deps.db) await db.close();
    },
  };
}
