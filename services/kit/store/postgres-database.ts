import pg from 'pg';
import { CHANNEL_PATTERN, type Database, type Listener, type Queryable, type Row } from './database.js';

/** A PostgreSQL server through a `pg` connection pool (`DATABASE_URL=postgres://...`). */
export function openPostgres(connectionString: string, maxConnections: number): Database {
  const pool = new pg.Pool({ connectionString, max: maxConnections });
  // An idle client losing its server must not crash the process; the next query reports it.
  pool.on('error', () => undefined);
  const queryable = (target: Pick<pg.Pool, 'query'>): Queryable => ({
    async query<R extends Row = Row>(sql: string, params: readonly unknown[] = []) {
      return (await target.query<R>(sql, [...params])).rows;
    },
    // Without parameters pg uses the simple protocol, which takes several statements.
    async execute(sql: string) {
      await target.query(sql);
    },
  });
  return {
    kind: 'postgres',
    ...queryable(pool),
    async transaction(work) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await work(queryable(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    listen: (channel, onNotify) => listenOn(connectionString, channel, onNotify),
    // Other instances (and operators) write to the server too: nothing read can be kept.
    writes: () => undefined,
    close: () => pool.end(),
  };
}

const RECONNECT_FIRST_MS = 500;
const RECONNECT_MOST_MS = 30_000;

/**
 * LISTEN on a connection of its own (a pooled one would be handed to other work). When the
 * connection is lost it is opened again, waiting longer each time; once back, `onNotify` is
 * called once, for whatever was notified while nobody listened.
 */
async function listenOn(connectionString: string, channel: string, onNotify: () => void): Promise<Listener> {
  if (!CHANNEL_PATTERN.test(channel)) throw new Error(`not a channel name: ${channel}`);
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let delay = RECONNECT_FIRST_MS;
  const connect = async () => {
    const next = new pg.Client({ connectionString });
    next.on('notification', (message) => {
      if (message.channel === channel) onNotify();
    });
    next.on('error', () => lost(next));
    next.on('end', () => lost(next));
    await next.connect();
    await next.query(`LISTEN ${channel}`);
    return next;
  };
  const lost = (which: pg.Client) => {
    if (client !== which) return;
    client = undefined;
    which.end().catch(() => undefined);
    if (!stopped) again();
  };
  const again = () => {
    retry = setTimeout(() => {
      retry = undefined;
      connect().then(
        (next) => {
          if (stopped) return void next.end().catch(() => undefined);
          client = next;
          delay = RECONNECT_FIRST_MS;
          onNotify();
        },
        () => {
          delay = Math.min(delay * 2, RECONNECT_MOST_MS);
          if (!stopped) again();
        },
      );
    }, delay);
    retry.unref();
  };
  client = await connect();
  return {
    listening: () => client !== undefined,
    async stop() {
      stopped = true;
      if (retry !== undefined) clearTimeout(retry);
      const last = client;
      client = undefined;
      await last?.end().catch(() => undefined);
    },
  };
}
