import type { CompiledModel } from './compiled-model.js';
import type { TypeResolver } from './item-definition.js';
import type { ParsedImport } from './parsed-model.js';

/**
 * DMN 1.3 section 6.3.3: a model imports another of the same folder by its namespace and names
 * its elements with the import's name as prefix: `shared.tAge` as a typeRef, `shared.fee(x)`
 * in FEEL, a knowledge requirement `href="urn:shared#fee"`. The imported model is compiled on
 * its own first (its elements keep calling each other by their own names); the importing model
 * sees its item definitions and its business knowledge models and decision services.
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
