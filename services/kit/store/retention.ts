import { Counter } from 'prom-client';
import { z } from 'zod';
import type { Logger } from '../logger.js';
import { metricsRegistry } from '../metrics.js';
import type { Queryable } from './database.js';

/**
 * Retention windows (docs/operate/retention.md): each service that keeps a kind of personal record
 * removes it once it is older than its window, in small batches. Each batch is one statement in its
 * own transaction, and rows another transaction holds (a sign-in writing them) are skipped for a
 * later batch, never waited on: a purge holds no lock a sign-in would wait for.
 */
export interface RetentionRule {
  /** The kind of record, as the metrics label `record` and the docs name it. */
  record: string;
  /** Days a record is kept once it counts as old (rule by rule); 0: kept for ever. */
  days: number;
  /** Removes at most `limit` records older than `cutoff` (`$1`) and answers how many it removed. */
  purgeBatch(db: Queryable, cutoff: Date, limit: number): Promise<number>;
  /** One batch a run whatever it answers: a rule whose batch is slow work (an account's erasure) and pages on by itself. */
  once?: boolean;
}

const DAY_MS = 86_400_000;

/** A retention window in days as a setting: 0 keeps records for ever; at most ten years. */
export function retentionDays(defaultDays: number) {
  return z.coerce.number().int().min(0).max(3650).default(defaultDays);
}

/** The purge job's own settings, shared by every service that runs one. */
export const purgeSettings = {
  RETENTION_PURGE_EVERY_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .max(604_800)
    .default(3600)
    .describe('Seconds between two purges of records past their retention window (the first comes a minute after start, or sooner); 0: no purge job runs.'),
  RETENTION_PURGE_BATCH: z.coerce.number().int().min(1).max(10_000).default(500).describe('Records removed per statement (each its own short transaction).'),
};

export interface PurgeSettings {
  RETENTION_PURGE_EVERY_SECONDS: number;
  RETENTION_PURGE_BATCH: number;
}

const runs = new Counter({
  name: 'retention_purge_runs_total',
  help: 'Purges of records past their retention window, by service and outcome (ok, failed).',
  labelNames: ['service', 'outcome'],
  registers: [metricsRegistry],
});
const purged = new Counter({
  name: 'retention_purged_records_total',
  help: 'Records removed because their retention window had passed, by service and kind of record.',
  labelNames: ['service', 'record'],
  registers: [metricsRegistry],
});

/**
 * One purge: every rule with a window, batch after batch until a batch comes back short. Answers
 * the records removed per kind. A rule with 0 days is skipped (kept for ever, as the law may ask).
 */
export async function purgeOnce(db: Queryable, service: string, rules: readonly RetentionRule[], now: Date, batch: number): Promise<Record<string, number>> {
  const removed: Record<string, number> = {};
  try {
    for (const rule of rules) {
      if (rule.days === 0) continue;
      const cutoff = new Date(now.getTime() - rule.days * DAY_MS);
      let total = 0;
      for (;;) {
        const count = await rule.purgeBatch(db, cutoff, batch);
        total += count;
        if (count > 0) purged.inc({ service, record: rule.record }, count);
        if (count < batch || rule.once === true) break;
      }
      removed[rule.record] = total;
    }
  } catch (error) {
    runs.inc({ service, outcome: 'failed' });
    throw error;
  }
  runs.inc({ service, outcome: 'ok' });
  return removed;
}

/**
 * `DELETE` of at most `$2` rows of `table` matching `where` (which reads the cutoff as `$1`), skipping
 * rows locked by others; answers the rows removed. `ctid` names a row on PGlite and PostgreSQL alike
 * whatever the table's key.
 */
export async function deleteBatch(db: Queryable, table: string, where: string, cutoff: Date, limit: number): Promise<number> {
  const rows = await db.query(
    `DELETE FROM ${table} WHERE ctid IN (SELECT ctid FROM ${table} WHERE ${where} LIMIT $2 FOR UPDATE SKIP LOCKED) RETURNING 1 AS gone`,
    [cutoff, limit],
  );
  return rows.length;
}

/**
 * `deleteBatch` of a record whose rows in `children` name it by `key`: a batch of at most `$2`
 * rows of `table` matching `where`, and their children, in one statement (a child never outlives
 * the row it names, and no transaction spans two statements).
 */
export async function deleteWithChildren(
  db: Queryable,
  record: { table: string; key: string; where: string; children: readonly string[] },
  cutoff: Date,
  limit: number,
): Promise<number> {
  const { table, key, where, children } = record;
  const doomed = `SELECT ${key} FROM doomed`;
  const rows = await db.query(
    `WITH doomed AS (SELECT ${key} FROM ${table} WHERE ${where} LIMIT $2 FOR UPDATE SKIP LOCKED)${children
      .map((child, i) => `, child${i} AS (DELETE FROM ${child} WHERE ${key} IN (${doomed}))`)
      .join('')}
     DELETE FROM ${table} WHERE ${key} IN (${doomed}) RETURNING 1 AS gone`,
    [cutoff, limit],
  );
  return rows.length;
}

/**
 * Purges on a clock: the first run soon after start, then every `RETENTION_PURGE_EVERY_SECONDS`.
 * A failing run is logged and counted; the next comes as usual. The timer keeps no process alive.
 */
export function startPurgeJob(options: {
  db: Queryable;
  service: string;
  rules: readonly RetentionRule[];
  settings: PurgeSettings;
  now: () => Date;
  logger: Logger;
}): { stop(): Promise<void> } {
  const { db, service, rules, settings, now, logger } = options;
  const everyMs = settings.RETENTION_PURGE_EVERY_SECONDS * 1000;
  if (everyMs === 0) return { stop: () => Promise.resolve() };
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  const run = () => {
    running = purgeOnce(db, service, rules, now(), settings.RETENTION_PURGE_BATCH).then(
      (removed) => {
        if (Object.values(removed).some((count) => count > 0)) logger.info({ removed }, 'records past their retention window removed');
      },
      (error: unknown) => logger.warn({ err: error }, 'retention purge failed'),
    );
    void running.then(() => {
      if (!stopped) schedule(everyMs);
    });
  };
  const schedule = (delay: number) => {
    timer = setTimeout(run, delay);
    timer.unref();
  };
  // Not at once: a start-up is busy enough (migrations, the first sign-ins).
  schedule(Math.min(everyMs, 60_000));
  return {
    async stop() {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      await running;
    },
  };
}
