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
  /** Issue 27: a machine's hot path answered before the Express stack (kit/fast-path.ts). */
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
 * Issue 30: how often Node looks for connections past their header or request timeout. Node does
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

/** Process entry shared by every service: validate config, build the app, listen, stop on signals. */
export async function runService<S extends z.ZodType<BaseConfig>>(definition: ServiceDefinition<S>): Promise<void> {
  let config: z.output<S>;
  try {
    config = loadConfig(definition.configSchema);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${definition.service}: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger({ service: definition.service, level: config.LOG_LEVEL });
  let created: Awaited<ReturnType<typeof definition.createApp>>;
  try {
    created = await definition.createApp(config, logger);
  } catch (error) {
    // A folder in use or damaged: one plain line naming the folder and what to do, no stack.
    if (error instanceof StoreError) {
      logger.fatal({ service: definition.service }, error.message);
      process.stderr.write(`${definition.service}: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const { app, close, drain, fastPath } = 'app' in created ? created : { app: created, close: async () => undefined, drain: undefined, fastPath: undefined };
  const server = await listen(app, config.PORT ?? definition.defaultPort, config.HOST, fastPath);
  const address = server.address();
  logger.info({ port: typeof address === 'object' && address !== null ? address.port : undefined, host: config.HOST }, 'listening');
  const stop = (signal: string) => {
    logger.info({ signal }, 'stopping');
    drain?.();
    server.close(() => {
      close().then(
        () => process.exit(0),
        (error: unknown) => {
          logger.error({ err: error }, 'close failed');
          process.exit(1);
        },
      );
    });
    server.closeIdleConnections();
    setTimeout(() => process.exit(0), 5000).unref();
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}
