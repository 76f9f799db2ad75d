import { CellFailure } from './problem.js';
import { feelTypeOf } from './type-ref.js';

/** A matched rule and its outputs: a bare value for a single-output table, else an object by output name. */
export interface Hit {
  readonly rule: number;
  readonly value: unknown;
}

export interface HitPolicy {
  /** FIRST needs no rule after the first match. */
  readonly stopAtFirstMatch: boolean;
  /** Turns the hits, in rule order, into the decision's result. */
  select(hits: readonly Hit[]): unknown;
}

/** Ranks a hit by the position of its outputs in their output value lists (PRIORITY, OUTPUT ORDER). */
export type Rank = (value: unknown) => readonly number[];

const HIT_POLICIES = ['UNIQUE', 'FIRST', 'PRIORITY', 'ANY', 'COLLECT', 'RULE ORDER', 'OUTPUT ORDER'] as const;
const AGGREGATIONS = ['SUM', 'MIN', 'MAX', 'COUNT'] as const;
type Aggregation = (typeof AGGREGATIONS)[number];

function isOneOf<T extends string>(list: readonly T[], value: string): value is T {
  return (list as readonly string[]).includes(value);
}

function ruleList(hits: readonly Hit[]): string {
  return hits.map((h) => h.rule).join(', ');
}

// Structural equality of FEEL values; temporal values compare by their ISO form.
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => sameValue(item, b[i]));
  }
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  if ('toJSON' in a && typeof a.toJSON === 'function' && 'toJSON' in b && typeof b.toJSON === 'function') return a.toJSON() === b.toJSON();
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

function compareRanks(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < a.length; i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

function byPriority(hits: readonly Hit[], rank: Rank): Hit[] {
  // Array.prototype.sort is stable, so equal ranks keep rule order.
  const ranked = hits.map((hit) => ({ hit, rank: rank(hit.value) }));
  return ranked.sort((x, y) => compareRanks(x.rank, y.rank)).map((r) => r.hit);
}

// DMN 1.3 section 8.2.11: C+, C<, C>, C# apply sum, min, max and count to the outputs of all hits.
function aggregate(aggregation: Aggregation, hits: readonly Hit[]): unknown {
  if (aggregation === 'COUNT') return hits.length;
  if (hits.length === 0) return null;
  const values = hits.map((h) => h.value);
  const type = typeof values[0];
  const allowed = aggregation === 'SUM' ? type === 'number' : type === 'number' || type === 'string';
  const odd = values.find((v) => typeof v !== type);
  if (!allowed || odd !== undefined) {
    const offender = !allowed ? values[0] : odd;
    return new CellFailure(`${aggregation} cannot aggregate a ${feelTypeOf(offender)} (rules ${ruleList(hits)})`);
  }
  if (aggregation === 'SUM') return (values as number[]).reduce((sum, v) => sum + v, 0);
  const sorted = [...(values as Array<number | string>)].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
  return aggregation === 'MIN' ? sorted[0] : sorted[sorted.length - 1];
}

function single(select: (hits: readonly Hit[]) => unknown, stopAtFirstMatch = false): HitPolicy {
  return { stopAtFirstMatch, select: (hits) => (hits.length === 0 ? null : select(hits)) };
}

/**
 * The DMN 1.3 hit policies (section 8.2.11). A description of what is wrong with the
 * combination, for the compiler to report, when the table cannot use it.
 */
export function hitPolicyFor(name: string, aggregation: string | null, outputCount: number, rank: Rank | null): HitPolicy | string {
  if (!isOneOf(HIT_POLICIES, name)) return `unknown hit policy '${name}'`;
  if (aggregation !== null) {
    if (name !== 'COLLECT') return `aggregation ${aggregation} needs hit policy COLLECT, not ${name}`;
    if (!isOneOf(AGGREGATIONS, aggregation)) return `unknown aggregation '${aggregation}'`;
    // Section 8.2.11: tables with compound outputs do not support aggregation.
    if (outputCount !== 1) return `aggregation ${aggregation} needs exactly one output, not ${outputCount}`;
    return { stopAtFirstMatch: false, select: (hits) => aggregate(aggregation, hits) };
  }
  const unranked = `hit policy ${name} needs output values (a list of literals) on at least one output`;
  switch (name) {
    case 'UNIQUE':
      return single((hits) => (hits.length > 1 ? new CellFailure(`hit policy UNIQUE, but rules ${ruleList(hits)} all match`) : hits[0]?.value));
    case 'FIRST':
      return single((hits) => hits[0]?.value, true);
    case 'ANY':
      return single((hits) =>
        hits.every((h) => sameValue(h.value, hits[0]?.value))
          ? hits[0]?.value
          : new CellFailure(`hit policy ANY, but matching rules ${ruleList(hits)} disagree on the outputs`),
      );
    case 'PRIORITY':
      return rank === null ? unranked : single((hits) => byPriority(hits, rank)[0]?.value);
    case 'OUTPUT ORDER':
      return rank === null ? unranked : { stopAtFirstMatch: false, select: (hits) => byPriority(hits, rank).map((h) => h.value) };
    case 'COLLECT':
    case 'RULE ORDER':
      return { stopAtFirstMatch: false, select: (hits) => hits.map((h) => h.value) };
  }
}
