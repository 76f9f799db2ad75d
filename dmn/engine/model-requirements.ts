import type { FeelFunction } from 'feelin';
import type { InputDeclaration } from './compiled-model.js';
import { dependencyOrder } from './dependency-order.js';
import { importedDecision, type ResolvedImport } from './imports.js';
import { knowledgeOf, type Declarations, type Failed } from './model-declarations.js';
import type { TypeResolver } from './item-definition.js';
import { anyType } from './type-ref.js';

/**
 * Compile phase 3 (compile-model.ts): what each decision requires (decisions, input data,
 * knowledge, imported decisions), and the order the decisions run in.
 */
export interface Requirements {
  /** Decision (or import prefix) -> the decisions and import prefixes it requires. */
  readonly requires: ReadonlyMap<string, readonly string[]>;
  /** Decision (or import prefix) -> the inputs it reads. */
  readonly reads: ReadonlyMap<string, readonly InputDeclaration[]>;
  /** Decision -> the knowledge it calls. */
  readonly knows: ReadonlyMap<string, readonly string[]>;
  /** Imported decisions the model requires, by import prefix (DMN 1.3 section 6.3.3, imports.ts). */
  readonly importNeeds: ReadonlyMap<string, ReadonlyMap<string, FeelFunction>>;
  /** Decisions and import prefixes in dependency order. */
  readonly order: readonly string[];
}

// A FEEL name without spaces: the input expression of a table that reads an input directly.
const PLAIN_NAME = /^[\p{L}_][\p{L}\p{N}_]*$/u;

export function collectRequirements(declared: Declarations, imports: readonly ResolvedImport[], types: TypeResolver): Requirements | Failed {
  const requires = new Map<string, string[]>();
  const reads = new Map<string, InputDeclaration[]>();
  const knows = new Map<string, string[]>();
  const importNeeds = new Map<string, Map<string, FeelFunction>>();
  for (const [decisionName, decision] of declared.decisions) {
    const required: string[] = [];
    for (const id of decision.requiredDecisions) {
      const requiredName = declared.decisionNames.get(id);
      const imported = requiredName === undefined ? importedDecision(imports, id) : undefined;
      if (imported !== undefined) {
        if (!required.includes(imported.prefix)) required.push(imported.prefix);
        importNeeds.set(imported.prefix, (importNeeds.get(imported.prefix) ?? new Map()).set(imported.name, imported.fn));
        continue;
      }
      if (requiredName === undefined)
        return {
          message: `requires a decision '${id.includes('#') ? id : `#${id}`}' that the model${id.includes('#') ? ' and its imports do' : ' does'} not have`,
          decision: decisionName,
        };
      required.push(requiredName);
    }
    const inputs: InputDeclaration[] = [];
    for (const id of decision.requiredInputs) {
      const input = declared.inputsById.get(id);
      if (input === undefined) return { message: `requires input data '#${id}' that the model does not have`, decision: decisionName };
      inputs.push(input);
    }
    const known = knowledgeOf(declared, decision.requiredKnowledge, 'the decision');
    if (typeof known === 'string') return { message: known, decision: decisionName };
    requires.set(decisionName, required);
    reads.set(decisionName, inputs);
    knows.set(decisionName, known);
  }
  for (const prefix of importNeeds.keys()) {
    requires.set(prefix, []);
    reads.set(prefix, [{ name: prefix, conform: anyType }]);
  }
  const sorted = dependencyOrder(requires);
  if ('cycle' in sorted) return { message: `decisions require each other in a cycle: ${sorted.cycle.join(' -> ')}` };
  const unrequired = readByName(declared, requires, reads, types);
  if (unrequired !== undefined) return unrequired;
  return { requires, reads, knows, importNeeds, order: sorted.order };
}

/**
 * A table may read an input by its bare name without drawing the requirement (as DMN editors
 * allow); that input is declared all the same, with the clause's typeRef, and must be supplied
 * (spec 4.7 rule 9). Adds those to `reads`; a decision read that way is a problem.
 */
function readByName(
  declared: Declarations,
  requires: ReadonlyMap<string, readonly string[]>,
  reads: Map<string, InputDeclaration[]>,
  types: TypeResolver,
): Failed | undefined {
  for (const [decisionName, decision] of declared.decisions) {
    if (decision.table === null) continue;
    const inputs = reads.get(decisionName) ?? [];
    const required = requires.get(decisionName) ?? [];
    for (const clause of decision.table.inputs) {
      const read = clause.expression.trim();
      if (!PLAIN_NAME.test(read) || required.includes(read) || inputs.some((i) => i.name === read)) continue;
      if (declared.decisions.has(read)) return { message: `reads decision '${read}' without an information requirement`, decision: decisionName };
      if (declared.knowledgeNames.has(read)) continue;
      inputs.push(declared.inputsByName.get(read) ?? { name: read, conform: types(clause.typeRef) ?? anyType });
    }
  }
  return undefined;
}
