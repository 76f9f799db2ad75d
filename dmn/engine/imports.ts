import type { FeelFunction } from 'feelin';
import { invoke } from './compile-boxed.js';
import type { CompiledModel, CompiledStep } from './compiled-model.js';
import type { TypeResolver } from './item-definition.js';
import type { ParsedImport } from './parsed-model.js';
import { CellFailure, failure, problem, success } from './problem.js';

/**
 * DMN 1.3 section 6.3.3: a model imports another of the same folder by its namespace and names
 * its elements with the import's name as prefix: `shared.tAge` as a typeRef, `shared.fee(x)`
 * in FEEL, a knowledge requirement `href="urn:shared#fee"`. The imported model is compiled on
 * its own first (its elements keep calling each other by their own names); the importing model
 * sees its item definitions, its business knowledge models and decision services, and its
 * decisions (`shared.Base`), evaluated from the input data the request gives under the prefix
 * (`{"shared": {"devices": 4}}`).
 */
export interface ResolvedImport {
  readonly prefix: string;
  readonly namespace: string;
  readonly model: CompiledModel;
}

/** Pairs each import with the compiled model of that namespace; a message when one is missing. */
export function resolveImports(imports: readonly ParsedImport[], byNamespace: ReadonlyMap<string, CompiledModel>): ResolvedImport[] | string {
  const resolved: ResolvedImport[] = [];
  for (const entry of imports) {
    if (entry.name === '') return `the import of '${entry.namespace}' needs a name (its prefix)`;
    const model = byNamespace.get(entry.namespace);
    if (model === undefined) return `imports '${entry.namespace}' as '${entry.name}', but no model of the folder has that namespace`;
    resolved.push({ prefix: entry.name, namespace: entry.namespace, model });
  }
  return resolved;
}

/** Typerefs `prefix.tName` resolve in the imported model; everything else as before. */
export function withImportedTypes(local: TypeResolver, imports: readonly ResolvedImport[]): TypeResolver {
  if (imports.length === 0) return local;
  return (typeRef) => {
    if (typeRef !== null) {
      for (const { prefix, model } of imports) {
        if (typeRef.startsWith(`${prefix}.`)) return model.exported.types(typeRef.slice(prefix.length + 1));
      }
    }
    return local(typeRef);
  };
}

/** The knowledge requirements an import satisfies (`namespace#id` -> the prefix, whose value is a context of the functions). */
export function importedKnowledge(imports: readonly ResolvedImport[]): { ids: Map<string, string>; values: Record<string, unknown> } {
  const ids = new Map<string, string>();
  const values: Record<string, unknown> = {};
  for (const { prefix, namespace, model } of imports) {
    for (const id of model.exported.knowledgeIds.keys()) ids.set(`${namespace}#${id}`, prefix);
    values[prefix] = { ...model.exported.knowledge };
  }
  return { ids, values };
}

/** The imported decision a requirement `namespace#id` names, with the prefix it is read under. */
export function importedDecision(imports: readonly ResolvedImport[], href: string): { prefix: string; name: string; fn: FeelFunction } | undefined {
  for (const { prefix, namespace, model } of imports) {
    if (!href.startsWith(`${namespace}#`)) continue;
    const found = model.exported.decision(href.slice(namespace.length + 1));
    return found === undefined ? undefined : { prefix, ...found };
  }
  return undefined;
}

const isContext = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;

/**
 * The step that gives the prefix its value before the decisions that read it: the imported
 * model's knowledge and the imported decisions required, each evaluated from the request's
 * input data under the prefix (in `inputSlot`).
 */
export function importStep(prefix: string, slot: number, inputSlot: number, needed: ReadonlyMap<string, FeelFunction>, knowledge: unknown): CompiledStep {
  const cell = `input data '${prefix}'`;
  return {
    decision: prefix,
    slot,
    json: false,
    run: (slots) => {
      const given = slots[inputSlot];
      if (!isContext(given))
        return failure(
          problem('DMN_EVALUATION_ERROR', `the input data of imported model '${prefix}' must be a context of its inputs by name`, { decision: prefix, cell }),
        );
      const context: Record<string, unknown> = { ...(knowledge as Record<string, unknown>) };
      for (const [name, fn] of needed) {
        const decision = `${prefix}.${name}`;
        const missing = fn.parameterNames.find((p) => !Object.hasOwn(given, p));
        if (missing !== undefined)
          return failure(problem('DMN_EVALUATION_ERROR', 'the input is missing', { decision, cell: `input data '${prefix}.${missing}'` }));
        const value = invoke(fn, Object.fromEntries(fn.parameterNames.map((p) => [p, given[p]])), decision, `imported decision '${decision}'`);
        if (value instanceof CellFailure) return failure(problem('DMN_EVALUATION_ERROR', value.message, { decision, cell: value.cell }));
        context[name] = value;
      }
      return success(context);
    },
  };
}
