import type { ParsedItemDefinition } from './parsed-model.js';
import { CellFailure, Violation } from './problem.js';
import { anyType, conformerFor, feelTypeOf, KNOWN_TYPE_REFS, type Conform } from './type-ref.js';
import { compileUnaryTest } from './unary-test.js';

/** The check of a typeRef: built-in types and the model's item definitions; `undefined` when unknown. */
export type TypeResolver = (typeRef: string | null) => Conform | undefined;

const NO_NAMES = new Map<string, number>();
const NO_SLOTS: unknown[] = [];

function isContextValue(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype;
}

// A nested check failed: the whole value does not conform (DMN 1.3 section 7.3.2).
const violationOf = (result: unknown, prefix: string) =>
  result instanceof Violation || result instanceof CellFailure ? new Violation(`${prefix}${result.message}`) : null;

/** What compiling one item definition needs: its name's resolver and where to note a problem. */
interface Resolving {
  resolve(typeRef: string, resolving: ReadonlySet<string>): Conform | undefined;
  note(problem: string): void;
}

/** A structure checks each of its components; a missing component is null. */
function structureCheck(components: readonly { name: string; check: Conform }[], label: string): Conform {
  return (value) => {
    if (value === null) return null;
    if (!isContextValue(value)) return new Violation(`a ${feelTypeOf(value)} is not a '${label}' structure`);
    const out: Record<string, unknown> = { ...value };
    for (const { name, check } of components) {
      const checked = check(Object.hasOwn(value, name) ? value[name] : null);
      const violation = violationOf(checked, `component '${name}': `);
      if (violation !== null) return violation;
      out[name] = checked;
    }
    return out;
  };
}

/** Allowed values are a unary test on the value, after its base check. */
function allowedValuesCheck(base: Conform, allowedValues: string, label: string, context: Resolving): Conform {
  const test = compileUnaryTest(allowedValues, NO_NAMES);
  if (test instanceof CellFailure) {
    context.note(`item definition '${label}', allowed values: ${test.message}`);
    return base;
  }
  return (value) => {
    const checked = base(value);
    if (checked === null || checked instanceof Violation || checked instanceof CellFailure) return checked;
    const passes = test(checked, NO_SLOTS);
    return passes === true ? checked : new Violation(`the value is not among the allowed values of '${label}'`);
  };
}

/** A collection checks each item. */
function collectionCheck(one: Conform, label: string): Conform {
  return (value) => {
    if (value === null) return null;
    if (!Array.isArray(value)) return new Violation(`a ${feelTypeOf(value)} is not a '${label}' collection`);
    const out: unknown[] = [];
    for (const [i, item] of value.entries()) {
      const checked = one(item);
      const violation = violationOf(checked, `item ${i + 1}: `);
      if (violation !== null) return violation;
      out.push(checked);
    }
    return out;
  };
}

/** The check of one item definition (DMN 1.3 section 7.3.2). */
function compileDefinition(definition: ParsedItemDefinition, label: string, resolving: ReadonlySet<string>, context: Resolving): Conform {
  let base: Conform;
  if (definition.components.length > 0) {
    const components = definition.components.map((component) => ({
      name: component.name ?? '',
      check: compileDefinition(component, `${label}.${component.name ?? '?'}`, resolving, context),
    }));
    base = structureCheck(components, label);
  } else if (definition.typeRef !== null && resolving.has(definition.typeRef)) {
    context.note(`item definition '${label}' refers to itself through typeRef '${definition.typeRef}'`);
    base = anyType;
  } else {
    const resolved = definition.typeRef === null ? anyType : context.resolve(definition.typeRef, new Set([...resolving, label]));
    if (resolved === undefined) context.note(`item definition '${label}': unknown typeRef '${definition.typeRef}'`);
    base = resolved ?? anyType;
  }
  const one = definition.allowedValues === null ? base : allowedValuesCheck(base, definition.allowedValues, label, context);
  if (definition.isCollection) return collectionCheck(one, label);
  return (value) => {
    const checked = one(value);
    return checked instanceof CellFailure ? new Violation(checked.message) : checked;
  };
}

/**
 * Compiles the item definitions of a model (DMN 1.3 section 7.3.2) into checks: a structure
 * checks each component (a missing one is null), a collection checks each item, allowed values
 * are unary tests on the value (on each item of a collection). A value that does not conform is
 * a `Violation`: the evaluation turns it into null and reports the problem.
 */
export function typeResolver(definitions: readonly ParsedItemDefinition[]): TypeResolver | string {
  const byName = new Map<string, ParsedItemDefinition>();
  for (const definition of definitions) {
    if (!definition.name) return 'an item definition needs a name';
    if (byName.has(definition.name)) return `two item definitions are named '${definition.name}'`;
    byName.set(definition.name, definition);
  }
  const compiled = new Map<string, Conform>();
  let problem: string | null = null;
  const context: Resolving = {
    note: (found) => {
      problem ??= found;
    },
    resolve(typeRef, resolving = new Set()) {
      const builtIn = conformerFor(typeRef);
      if (builtIn !== undefined) return builtIn;
      // A typeRef may carry the namespace prefix of its own model (`tns.tAge`, `tns:tAge`).
      const name = byName.has(typeRef) ? typeRef : typeRef.replace(/^[\w-]+[.:]/, '');
      const definition = byName.get(name);
      if (definition === undefined) return undefined;
      let check = compiled.get(name);
      if (check === undefined) {
        check = compileDefinition(definition, name, resolving, context);
        compiled.set(name, check);
      }
      return check;
    },
  };
  for (const name of byName.keys()) context.resolve(name, new Set());
  if (problem !== null) return problem;
  return (typeRef) => (typeRef === null ? anyType : context.resolve(typeRef, new Set()));
}

export function unknownTypeRef(typeRef: string | null): string {
  return `unknown typeRef '${typeRef}' (known: ${KNOWN_TYPE_REFS.join(', ')} and the model's item definitions)`;
}
