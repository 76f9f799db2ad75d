import { Allowance } from '../../contract/entitlement.js';
import { z } from 'zod';
import { AllowanceLeft, AllowanceLeftRequest, UsageReported, UsageReportRequest } from '../../contract/session.js';
import { requireApiKey, route, type CallerKey, type Route } from '../kit/index.js';
import type { Queryable } from '../kit/store/index.js';
import type { SessionScope } from './config.js';
import type { UsageCounters } from './usage-counters.js';

interface OwnerRow {
  session_id: string;
  subject_id: string;
  allowance: unknown;
  [column: string]: unknown;
}

/** Whether `subjectId` has nothing left of `allowance` now (time or data used up). */
async function usedUp(usage: UsageCounters, subjectId: string, allowance: Allowance, now: Date): Promise<boolean> {
  const left = await usage.remaining(subjectId, allowance, now);
  return left.bytesRemaining === 0 || left.secondsRemaining === 0;
}

/**
 * The live GRANTED sessions of these persons, other than `reported`, whose allowance is used up.
 * A device that reports nothing until it ends (an openNDS client: BinAuth tells its usage only
 * then) would otherwise run on to the quota its controller got at its sign-in while the person's
 * other devices use the period's allowance: the gateway ends these too.
 */
async function othersUsedUp(db: Queryable, usage: UsageCounters, subjectIds: string[], reported: string[], at: Date): Promise<string[]> {
  if (subjectIds.length === 0) return [];
  const rows = await db.query<OwnerRow>(
    `SELECT session_id, subject_id, allowance FROM sessions
     WHERE subject_id = ANY($1::text[]) AND state = 'GRANTED' AND NOT (session_id = ANY($2::text[])) AND (expires_at IS NULL OR expires_at > $3)`,
    [subjectIds, reported, at],
  );
  const ended: string[] = [];
  for (const row of rows) {
    const allowance = Allowance.safeParse(row.allowance);
    if (allowance.success && (await usedUp(usage, row.subject_id, allowance.data, at))) ended.push(row.session_id);
  }
  return ended;
}

/**
 * The gateway service's accounting, added to the allowance counters of the sessions' persons.
 * Reports carry each connection's cumulative totals, so sending one again (the gateway's retry
 * after a lost answer) adds nothing: the counters keep per connection what they counted.
 */
export function usageRoutes(db: Queryable, usage: UsageCounters, keys: readonly CallerKey<SessionScope>[], now: () => Date): Route[] {
  return [
    route({
      method: 'post',
      path: '/api/v1/usage',
      summary:
        "Adds connections' usage (cumulative per connection, so a replay adds nothing) to their persons' allowance counters; answers whose allowance is used up.",
      security: 'apiKey',
      body: UsageReportRequest,
      steps: [requireApiKey(keys, 'usage')],
      responses: {
        200: { description: 'Counted, refused or ignored, report by report; the sessions whose person has nothing left.', schema: UsageReported },
        400: { description: 'INVALID_REQUEST' },
        401: { description: 'UNAUTHORIZED' },
        403: { description: "FORBIDDEN: the key is known but lacks this route's scope." },
      },
      handle: async ({ body }) => {
        const ids = [...new Set(body.reports.map((report) => report.sessionId))];
        const owners = new Map<string, { subjectId: string; allowance: Allowance }>();
        for (const row of await db.query<OwnerRow>('SELECT session_id, subject_id, allowance FROM sessions WHERE session_id = ANY($1::text[])', [ids])) {
          const allowance = Allowance.safeParse(row.allowance);
          if (allowance.success) owners.set(row.session_id, { subjectId: row.subject_id, allowance: allowance.data });
        }
        const answer: UsageReported = { counted: 0, refused: 0, ignored: 0, exhausted: [] };
        for (const report of body.reports) {
          const owner = owners.get(report.sessionId);
          if (owner === undefined) {
            answer.ignored++;
            continue;
          }
          const outcome = await usage.add({
            connectionKey: report.connectionKey,
            subjectId: owner.subjectId,
            period: owner.allowance.period,
            at: new Date(report.at),
            octets: report.octets,
            sessionTime: report.sessionTime,
          });
          if (outcome.kind === 'counted') answer.counted++;
          else answer.refused++;
        }
        const at = now();
        const spent = new Set<string>();
        for (const [sessionId, owner] of owners) {
          if (!(await usedUp(usage, owner.subjectId, owner.allowance, at))) continue;
          answer.exhausted.push(sessionId);
          spent.add(owner.subjectId);
        }
        answer.exhausted.push(...(await othersUsedUp(db, usage, [...spent], [...owners.keys()], at)));
        return { status: 200, body: answer };
      },
    }),
    route({
      method: 'post',
      path: '/api/v1/subjects/:subjectId/allowance-left',
      summary:
        'What a person has left now of the allowance an entitlement gives, counted across their sessions and devices, and when it renews; asked before a grant, so a sign-in with nothing left creates nothing.',
      security: 'apiKey',
      params: { subjectId: z.uuid('must be a UUID') },
      body: AllowanceLeftRequest,
      steps: [requireApiKey(keys, 'read')],
      responses: {
        200: { description: 'What is left (null: that part has no limit) and the renewal.', schema: AllowanceLeft },
        400: { description: 'INVALID_REQUEST' },
        401: { description: 'UNAUTHORIZED' },
        403: { description: "FORBIDDEN: the key is known but lacks this route's scope." },
      },
      handle: async ({ params: { subjectId }, body }) => {
        const left = await usage.remaining(subjectId, body.allowance, now());
        return { status: 200, body: { ...left, renewsAt: left.renewsAt.toISOString() } };
      },
    }),
  ];
}
