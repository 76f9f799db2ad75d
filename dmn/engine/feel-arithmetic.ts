import { duration, evaluate, FeelDateTime, FeelDuration } from 'feelin';
import { decimal } from './feel-decimal.js';

/**
 * FEEL arithmetic (DMN 1.3 section 10.3.2.12, tables 46 and 57) as one function used by the
 * compiled expressions and, through `feel-rewrite.ts`, by every expression feelin evaluates, so
 * both paths agree: decimal results, durations scaled and divided, durations negated.
 */
export type ArithOp = '+' | '-' | '*' | '/' | '**';

// A duration as one number: months for years and months durations, milliseconds otherwise.
function durationAmount(d: FeelDuration): number {
  const value = d.unwrap();
  return d.yearsMonths ? value.years * 12 + value.months : value.total({ unit: 'millisecond' });
}

function durationOf(amount: number, yearsMonths: boolean): FeelDuration | null {
  if (!Number.isFinite(amount)) return null;
  if (!yearsMonths) return duration(Math.round(amount));
  const months = Math.trunc(amount);
  return duration(`${months < 0 ? '-' : ''}P${Math.abs(months)}M`);
}

/** `-d` for a duration (table 57: negation keeps the duration's kind). */
export function negateDuration(d: FeelDuration): FeelDuration {
  return new FeelDuration(d.unwrap().negated(), d.yearsMonths);
}

// Table 57: duration * number, duration / number, and duration / duration of the same kind.
function durationArithmetic(op: ArithOp, a: unknown, b: unknown): unknown {
  const da = a instanceof FeelDuration ? a : null;
  const db = b instanceof FeelDuration ? b : null;
  if (op === '*' && da !== null && typeof b === 'number') return durationOf(durationAmount(da) * b, da.yearsMonths);
  if (op === '*' && db !== null && typeof a === 'number') return durationOf(durationAmount(db) * a, db.yearsMonths);
  if (op === '/' && da !== null && typeof b === 'number') return b === 0 ? null : durationOf(durationAmount(da) / b, da.yearsMonths);
  if (op === '/' && da !== null && db !== null) {
    if (da.yearsMonths !== db.yearsMonths) return null;
    const divisor = durationAmount(db);
    return divisor === 0 ? null : decimal(durationAmount(da) / divisor);
  }
  return null;
}

// The instant of a date and time with a time zone, in epoch milliseconds; null without a zone
// (or with a sub-minute offset, which Temporal does not place).
function instant(v: FeelDateTime): number | null {
  if (v.zone === null) return null;
  try {
    return v.value.toZonedDateTime(v.zone).epochMilliseconds;
  } catch {
    return null;
  }
}

// Table 57: date and time - date and time is the time between the two instants; feelin subtracts
// the wall clocks and ignores the zones, so two zoned values are subtracted here.
function zonedDifference(a: FeelDateTime, b: FeelDateTime): FeelDuration | null {
  const from = instant(b);
  const to = instant(a);
  return from === null || to === null ? null : duration(to - from);
}

// Table 57 with XPath's op:add-dayTimeDuration-to-dateTime: a days and time duration is a fixed
// length of time (P1D is 24 hours), so a zoned date and time moves by that much time; feelin
// moves the wall clock by calendar days, an hour off across a daylight-saving change.
function zonedShift(at: FeelDateTime, by: FeelDuration, sign: 1 | -1): FeelDateTime | null {
  if (at.zone === null || by.yearsMonths) return null;
  try {
    const moved = at.value.toZonedDateTime(at.zone).add({ milliseconds: sign * by.unwrap().total({ unit: 'millisecond' }) });
    return new FeelDateTime(moved.toPlainDateTime(), at.zone);
  } catch {
    return null;
  }
}

// feelin's other temporal + and - (dates, times, date and time with durations, wall clocks)
// are right (pinned by test/dmn/engine/feel-temporal.test.ts), so they are delegated.
const TEMPORAL_TEXT: Readonly<Record<'+' | '-', string>> = { '+': 'a + b', '-': 'a - b' };
function temporalArithmetic(op: '+' | '-', a: unknown, b: unknown): unknown {
  if (op === '-' && a instanceof FeelDateTime && b instanceof FeelDateTime) {
    const difference = zonedDifference(a, b);
    if (difference !== null) return difference;
  }
  const shifted =
    a instanceof FeelDateTime && b instanceof FeelDuration
      ? zonedShift(a, b, op === '+' ? 1 : -1)
      : op === '+' && a instanceof FeelDuration && b instanceof FeelDateTime
        ? zonedShift(b, a, 1)
        : null;
  if (shifted !== null) return shifted;
  return evaluate(TEMPORAL_TEXT[op], { a, b }).value ?? null;
}

const isScalar = (v: unknown) => typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean';

/** `a op b` by FEEL's rules; null for operands the tables give no value for (and null operands). */
export function arithmetic(op: ArithOp, a: unknown, b: unknown): unknown {
  if (a === null || b === null || a === undefined || b === undefined) return null;
  if (typeof a === 'number' && typeof b === 'number') {
    switch (op) {
      case '+':
        return decimal(a + b);
      case '-':
        return decimal(a - b);
      case '*':
        return decimal(a * b);
      case '/':
        return b === 0 ? null : a / b; // not rounded: a quotient's digits are all significant
      case '**':
        return decimal(a ** b);
    }
  }
  if (op === '+' && typeof a === 'string' && typeof b === 'string') return a + b;
  // A string with a number, a boolean in arithmetic: no FEEL value (table 46).
  if (isScalar(a) && isScalar(b)) return null;
  if (op === '*' || op === '/') return durationArithmetic(op, a, b);
  if (op === '+' || op === '-') return temporalArithmetic(op, a, b);
  return null;
}

/** Unary minus: numbers and durations (table 57); anything else has no value. */
export function negate(a: unknown): unknown {
  if (typeof a === 'number') return a === 0 ? 0 : -a;
  if (a instanceof FeelDuration) return negateDuration(a);
  return null;
}
