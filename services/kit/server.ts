import { createServer, type Server } from 'node:http';
import type { Express } from 'express';
import type { z } from 'zod';
import { ConfigError, loadConfig } from './config.js';
import { createLogger, type Logger } from './logger.js';
import { StoreError } from './store/folder-lock.js';
import type { FastPath } from './fast-path.js';

export interface BaseConfig {
  /** Unset: the service's spec port (`defaultPort`); 0: any free port. */
  PORT?: number | undefined;
  HOST: string;
  LOG_LEVEL: string;
}

export interface ServiceDefinition<S extends z.ZodType<BaseConfig>> {
  service: string;
  defaultPort: number;
  configSchema: S;
  createApp: (config: z.output<S>, logger: Logger) => Express | ServiceInstance | Promise<Express | ServiceInstance>;
}

/** An app that holds resources (a database) to release when the process stops. */
export interface ServiceInstance {
  app: Express;
  /** A machine's hot path answered before the Express stack (kit/fast-path.ts). */
  fastPath?: FastPath;
  /** Called first when the process is told to stop: answers requests held open (long polls) now. */
  drain?(): void;
  close(): Promise<void>;
}

/**
 * How long an idle kept-alive connection stays open. Longer than any client's own idle timeout
 * (undici: 4 s), so it is always the client that closes an idle connection: with Node's default
 * of 5 s, a server closing a pooled socket just as the client reuses it drops that request
 * ("fetch failed"), which a stalled event loop makes likely.
 */
const KEEP_ALIVE_MS = 65_000;

/**
 * How often Node looks for connections past their header or request timeout. Node does
 * it on a clock (30 s by default) whether or not any connection is open: at idle that was two of
 * the few wake-ups per minute each service process had, and on this kind of machine a process
 * woken after a pause runs its first milliseconds several times slower (docs/develop/benchmarks.md, bench:idle). Every
 * five minutes, a client that never finishes its headers holds its socket at most that much
 * longer than headersTimeout; in front of the internet nginx enforces its own
 * client_header_timeout (60 s) anyway.
 */
export const TIMEOUT_CHECK_MS = 300_000;

/** Starts an app (after its fast path, if any) and resolves once it listens; port 0 picks a free port (tests). */
export function listen(app: Express, port: number, host = '127.0.0.1', fastPath?: FastPath): Promise<Server> {
  return new Promise((resolve, reject) => {
    const options = { keepAliveTimeout: KEEP_ALIVE_MS, headersTimeout: KEEP_ALIVE_MS + 1_000, connectionsCheckingInterval: TIMEOUT_CHECK_MS };
    const server = createServer(options, fastPath === undefined ? app : (req, res) => void (fastPath(req, res) || app(req, res)));
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}

/** A service started in this process: its port, and how to stop it (drain, stop listening, release its store). */
export interface StartedService {
  service: string;
  port: number;
  logger: Logger;
  /** Answers requests held open (long polls) now; the first step of a stop. */
  drain(): void;
  stop(): Promise<void>;
}

/**
 * Validates a service's configuration from `env`, builds its app and listens. Throws ConfigError
 * (a setting refused) or StoreError (its folder in use or damaged), having released what it took.
 */
export async function startService<S extends z.ZodType<BaseConfig>>(definition: ServiceDefinition<S>, env: NodeJS.ProcessEnv): Promise<StartedService> {
  const config = loadConfig(definition.configSchema, env);
  const logger = createLogger({ service: definition.service, level: config.LOG_LEVEL });
  const created = await definition.createApp(config, logger);
  const { app, close, drain, fastPath } = 'app' in created ? created : { app: created, close: async () => undefined, drain: undefined, fastPath: undefined };
  let server: Server;
  try {
    server = await listen(app, config.PORT ?? definition.defaultPort, config.HOST, fastPath);
  } catch (error) {
    await close();
    throw error;
  }
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  logger.info({ port, host: config.HOST }, 'listening');
  return {
    service: definition.service,
    port,
    logger,
    drain: () => drain?.(),
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.close(() => close().then(resolve, reject));
        server.closeIdleConnections();
      }),
  };
}

/** Starts a service from its definition with the environment a host gives it. */
export type ServiceStarter = (env: NodeJS.ProcessEnv) => Promise<StartedService>;

/**
 * Set by the co-host (kit/cohost.ts) while it loads each service's main module: `runService`
 * then hands the host the way to start that service instead of starting it as the process.
 */
let hostCollector: ((service: string, start: ServiceStarter) => void) | undefined;

/** Calls `load` with `runService` collecting the definitions it is given; returns them by service name. */
export async function collectServices(load: () => Promise<void>): Promise<Map<string, ServiceStarter>> {
  const collected = new Map<string, ServiceStarter>();
  hostCollector = (service, start) => collected.set(service, start);
  try {
    await load();
  } finally {
    hostCollector = undefined;
  }
  return collected;
}

/** Process entry shared by every service: validate config, build the app, listen, stop on signals. */
export async function runService<S extends z.ZodType<BaseConfig>>(definition: ServiceDefinition<S>): Promise<void> {
  if (hostCollector !== undefined) {
    hostCollector(definition.service, (env) => startService(definition, env));
    return;
  }
  let started: StartedService;
  try {
    started = await startService(definition, process.env);
  } catch (error) {
    // A setting refused, or a folder in use or damaged: one plain line, no stack.
    if (error instanceof ConfigError || error instanceof StoreError) {
      if (error instanceof StoreError) createLogger({ service: definition.service }).fatal({ service: definition.service }, error.message);
      process.stderr.write(`${definition.service}: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const stop = (signal: string) => {
    started.logger.info({ signal }, 'stopping');
    started.drain();
    started.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        started.logger.error({ err: error }, 'close failed');
        process.exit(1);
      },
    );
    setTimeout(() => process.exit(0), 5000).unref();
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}
