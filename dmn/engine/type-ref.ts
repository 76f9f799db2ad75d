import { FeelDate, FeelDateTime, FeelDuration, FeelTime, duration, isRange, parseDate, parseDateTime, parseTime } from 'feelin';
import { CellFailure } from './problem.js';

/**
 * Checks a value against a typeRef and brings JSON into FEEL: temporal types arrive as ISO
 * strings and leave as FEEL values. Null conforms to every type (a missing value is not a type error).
 */
export type Conform = (value: unknown) => unknown;

function mismatch(typeRef: string, value: unknown): CellFailure {
  return new CellFailure(`a ${feelTypeOf(value)} does not conform to typeRef '${typeRef}'`);
}

/** The FEEL type name of a value, for messages that must not quote the value itself. */
export function feelTypeOf(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return 'list';
  if (value instanceof FeelDate) return 'date';
  if (value instanceof FeelTime) return 'time';
  if (value instanceof FeelDateTime) return 'date and time';
  if (value instanceof FeelDuration) return value.yearsMonths ? 'years and months duration' : 'days and time duration';
  if (isRange(value)) return 'range';
  if (typeof value === 'object') return 'context';
  return typeof value;
}

function primitive(typeRef: string, type: 'string' | 'number' | 'boolean'): Conform {
  return (value) => (value === null || typeof value === type ? value : mismatch(typeRef, value));
}

function temporal(typeRef: string, accepts: (value: unknown) => boolean, fromString: (text: string) => unknown): Conform {
  return (value) => {
    if (value === null || accepts(value)) return value;
    const parsed = typeof value === 'string' ? fromString(value) : null;
    return parsed !== null && accepts(parsed) ? parsed : mismatch(typeRef, value);
  };
}

const isDuration = (value: unknown) => value instanceof FeelDuration;

/** What an absent typeRef checks: nothing. */
export const anyType: Conform = (value) => value;

// DMN 1.3 section 10.3.2.9 type names; `duration` (either kind) as DMN editors offer it.
const CONFORMERS: Record<string, Conform> = {
  string: primitive('string', 'string'),
  number: primitive('number', 'number'),
  boolean: primitive('boolean', 'boolean'),
  date: temporal('date', (v) => v instanceof FeelDate, parseDate),
  time: temporal('time', (v) => v instanceof FeelTime, parseTime),
  'date and time': temporal('date and time', (v) => v instanceof FeelDateTime, parseDateTime),
  duration: temporal('duration', isDuration, duration),
  'days and time duration': temporal('days and time duration', (v) => isDuration(v) && !v.yearsMonths, duration),
  'years and months duration': temporal('years and months duration', (v) => isDuration(v) && v.yearsMonths, duration),
  Any: anyType,
};

// DMN 1.3 section 7.3.2 table 16: the XML Schema names of the FEEL types (`dateTime`,
// `dayTimeDuration`, `yearMonthDuration`) as DMN 1.1 models and some modelers still write them.
const XSD_NAMES: Readonly<Record<string, string>> = {
  dateTime: 'date and time',
  dayTimeDuration: 'days and time duration',
  yearMonthDuration: 'years and months duration',
};

// A `feel:` prefix (DMN 1.1 wrote `feel:string`) names the same built-in type.
const builtinName = (typeRef: string) => {
  const local = typeRef.startsWith('feel:') ? typeRef.slice(5) : typeRef;
  return XSD_NAMES[local] ?? local;
};

/** The check for a typeRef; an absent typeRef accepts anything; `undefined` means the typeRef is unknown. */
export function conformerFor(typeRef: string | null): Conform | undefined {
  if (typeRef === null) return anyType;
  const name = builtinName(typeRef);
  return Object.hasOwn(CONFORMERS, name) ? CONFORMERS[name] : undefined;
}

export const KNOWN_TYPE_REFS: readonly string[] = [...Object.keys(CONFORMERS), ...Object.keys(XSD_NAMES)];
