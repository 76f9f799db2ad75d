import type { Reader } from './compiled-model.js';
import type { CompiledExpression } from './expression.js';
import { CellFailure } from './problem.js';
import type { Slots } from './slots.js';
import { checkedReader, type Check } from './value-check.js';

export interface OutputSpec {
  readonly name: string;
  readonly cell: string;
  readonly check: Check;
  readonly allowedValues: string | null;
}

export interface CompiledRow {
  readonly read: Reader;
  /** Whether every value it produces is JSON already (literals no typeRef turned into FEEL values). */
  readonly json: boolean;
}

// Constants are checked before any evaluation exists; empty slots stand in for it.
const LOAD_TIME: Slots = [];

const isJsonConstant = (value: unknown) => value === null || ['string', 'number', 'boolean'].includes(typeof value);

/**
 * The outputs of one rule (or the default outputs): a bare value for a single output, else an
 * object by output name (DMN 1.3 section 8.2). Literal entries are checked now, so a rule made
 * of literals costs nothing to produce.
 */
export function compileRow(entries: readonly CompiledExpression[], outputs: readonly OutputSpec[]): CompiledRow | CellFailure {
  const constants: unknown[] = [];
  for (const [i, entry] of entries.entries()) {
    if (entry.kind !== 'constant') continue;
    const checked = (outputs[i] as OutputSpec).check(entry.value, LOAD_TIME);
    if (checked instanceof CellFailure) return checked;
    constants[i] = checked;
  }
  const names = outputs.map((o) => o.name);
  const single = outputs.length === 1;
  if (entries.every((e) => e.kind === 'constant')) {
    // Every evaluation returns this same frozen row.
    const row = single ? constants[0] : Object.freeze(Object.fromEntries(names.map((name, i) => [name, constants[i]])));
    return { read: () => row, json: constants.every(isJsonConstant) };
  }
  const readers: Reader[] = entries.map((entry, i) => {
    const output = outputs[i] as OutputSpec;
    return entry.kind === 'constant' ? () => constants[i] : checkedReader(entry, output.cell, output.check);
  });
  if (single) return { read: readers[0] as Reader, json: false };
  return {
    read: (slots) => {
      const row: Record<string, unknown> = {};
      for (let i = 0; i < readers.length; i++) {
        const value = (readers[i] as Reader)(slots);
        if (value instanceof CellFailure) return value;
        row[names[i] as string] = value;
      }
      return row;
    },
    json: false,
  };
}
