// The co-host: several services in one Node process, for the embedded default (`make up` and
// the test harness, through scripts/platform.ts). Each service is loaded from its own
// services/<name>/main.js, as it is (its runService call hands its definition to this host
// instead of starting it as the process), and started with its own port, its own configuration
// schema read from the environment, its own keys and its own store folder: only the process is
// shared. One Node process and one copy of PGlite's code instead of one each is most of the
// embedded default's memory (docs/decisions/0088-co-hosting.md). The cluster and the
// `DATABASE_URL` path keep one process per service (node dist/services/<name>/main.js).
//
//   node dist/services/kit/cohost.js hr:3001 entitlement:3002 ...   (name, or name:port)
//
// Fail closed: a service that cannot start (a setting refused, its folder in use or damaged, its
// port taken) stops the whole host, after releasing what the others took, with exit code 1; an
// uncaught error in any service ends the process, so every co-hosted port closes and callers see
// the same refusals as when one service's own process died.
import { ConfigError } from './config.js';
import { collectServices, type StartedService } from './server.js';
import { StoreError } from './store/folder-lock.js';

interface Hosted {
  name: string;
  port: number | undefined;
}

function parse(args: string[]): Hosted[] {
  return args.map((arg) => {
    const match = /^([a-z][a-z0-9-]*)(?::(\d+))?$/.exec(arg);
    if (match === null) throw new Error(`cohost: "${arg}" is not <service> or <service>:<port>`);
    return { name: match[1] as string, port: match[2] === undefined ? undefined : Number(match[2]) };
  });
}

/** Loads each service's main module and starts them all; on any failure stops those started and rethrows the first. */
export async function startHosted(hosted: Hosted[], env: NodeJS.ProcessEnv): Promise<StartedService[]> {
  const starters = await collectServices(async () => {
    for (const { name } of hosted) await import(new URL(`../${name}/main.js`, import.meta.url).href);
  });
  const outcomes = await Promise.allSettled(
    hosted.map(({ name, port }) => {
      const start = starters.get(name);
      if (start === undefined) return Promise.reject(new Error(`${name}: its main module started no service`));
      return start(port === undefined ? { ...env, PORT: '' } : { ...env, PORT: String(port) }).catch((error: unknown) => {
        throw error instanceof Error ? Object.assign(error, { message: `${name}: ${error.message}` }) : error;
      });
    }),
  );
  const started = outcomes.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
  const failed = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason as unknown] : []));
  if (failed.length > 0) {
    await Promise.allSettled(started.map((service) => service.stop()));
    throw failed[0];
  }
  return started;
}

async function main(): Promise<void> {
  let started: StartedService[];
  try {
    started = await startHosted(parse(process.argv.slice(2)), process.env);
  } catch (error) {
    if (error instanceof ConfigError || error instanceof StoreError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const stop = (signal: string) => {
    for (const service of started) service.logger.info({ signal }, 'stopping');
    for (const service of started) service.drain();
    Promise.all(started.map((service) => service.stop())).then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`cohost: a close failed: ${error instanceof Error ? error.message : String(error)}\n`);
        process.exit(1);
      },
    );
    setTimeout(() => process.exit(0), 5000).unref();
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

if (import.meta.url === new URL(process.argv[1] ?? '', 'file://').href) await main();
