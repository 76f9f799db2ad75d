import type { CompiledModel, InputDeclaration } from './compiled-model.js';
import { importedKnowledge, resolveImports, withImportedTypes, type ResolvedImport } from './imports.js';
import { typeResolver, unknownTypeRef, type TypeResolver } from './item-definition.js';
import type { ParsedDecision, ParsedDecisionService, ParsedExpression, ParsedKnowledgeModel, ParsedModel } from './parsed-model.js';

/**
 * Compile phases 1 and 2 (compile-model.ts): the model's types, then every name it declares.
 * Each phase answers its findings, or a string naming the first problem.
 */

/** Phase 1: the item definitions, then the imported models' types after them. */
export interface ModelTypes {
  readonly local: TypeResolver;
  readonly imports: readonly ResolvedImport[];
  readonly types: TypeResolver;
}

export function declareTypes(parsed: ParsedModel, imported: ReadonlyMap<string, CompiledModel>): ModelTypes | string {
  const local = typeResolver(parsed.itemDefinitions);
  if (typeof local === 'string') return local;
  const imports = resolveImports(parsed.imports, imported);
  if (typeof imports === 'string') return imports;
  return { local, imports, types: withImportedTypes(local, imports) };
}

export type NamedDecision = ParsedDecision & { readonly name: string; readonly logic: ParsedExpression };
export type NamedKnowledgeModel = ParsedKnowledgeModel & { readonly name: string };
export type NamedService = ParsedDecisionService & { readonly name: string };

/** Phase 2: input data, decisions, knowledge and services, each name used once. */
export interface Declarations {
  readonly inputsById: ReadonlyMap<string, InputDeclaration>;
  readonly inputsByName: ReadonlyMap<string, InputDeclaration>;
  readonly decisions: ReadonlyMap<string, NamedDecision>;
  /** Decision element id -> name. */
  readonly decisionNames: ReadonlyMap<string, string>;
  /** Knowledge (BKM, decision service, import prefix) element id -> name. */
  readonly knowledgeNames: ReadonlyMap<string, string>;
  readonly knowledgeModels: readonly NamedKnowledgeModel[];
  readonly services: readonly NamedService[];
  /** The imported knowledge, by import prefix. */
  readonly importedValues: Readonly<Record<string, unknown>>;
}

export type Failed = { readonly message: string; readonly decision?: string };

function declareInputs(parsed: ParsedModel, types: TypeResolver): Pick<Declarations, 'inputsById' | 'inputsByName'> | Failed {
  const inputsById = new Map<string, InputDeclaration>();
  const inputsByName = new Map<string, InputDeclaration>();
  for (const input of parsed.inputs) {
    if (!input.name) return { message: `input data '${input.id ?? '?'}' needs a name` };
    if (inputsByName.has(input.name)) return { message: `two input data are named '${input.name}'` };
    const conform = types(input.typeRef);
    if (conform === undefined) return { message: `input data '${input.name}': ${unknownTypeRef(input.typeRef)}` };
    const declaration = { name: input.name, conform };
    inputsByName.set(input.name, declaration);
    if (input.id) inputsById.set(input.id, declaration);
  }
  return { inputsById, inputsByName };
}

export function declareElements(parsed: ParsedModel, model: ModelTypes): Declarations | Failed {
  const inputs = declareInputs(parsed, model.types);
  if ('message' in inputs) return inputs;
  const decisions = new Map<string, NamedDecision>();
  const decisionNames = new Map<string, string>();
  const knowledgeNames = new Map<string, string>();
  const taken = (candidate: string) => inputs.inputsByName.has(candidate) || decisions.has(candidate) || knowledgeNames.has(candidate);
  for (const decision of parsed.decisions) {
    if (!decision.name) return { message: `decision '${decision.id ?? '?'}' needs a name` };
    if (taken(decision.name)) return { message: `the name '${decision.name}' is used twice` };
    const { logic } = decision;
    if (logic === null) return { message: 'the decision has no decision logic', decision: decision.name };
    decisions.set(decision.name, { ...decision, name: decision.name, logic });
    if (decision.id) decisionNames.set(decision.id, decision.name);
  }
  if (decisions.size === 0) return { message: 'the model has no decision' };
  const knowledgeModels: NamedKnowledgeModel[] = [];
  const services: NamedService[] = [];
  for (const element of [...parsed.knowledgeModels, ...parsed.decisionServices]) {
    if (!element.name) return { message: `business knowledge model or decision service '${element.id ?? '?'}' needs a name` };
    if (taken(element.name)) return { message: `the name '${element.name}' is used twice` };
    knowledgeNames.set(element.id ?? element.name, element.name);
    if ('logic' in element) knowledgeModels.push({ ...element, name: element.name });
    else services.push({ ...element, name: element.name });
  }
  const fromImports = importedKnowledge(model.imports);
  for (const prefix of Object.keys(fromImports.values))
    if (taken(prefix)) return { message: `the import name '${prefix}' is also the name of an element of the model` };
  for (const [id, prefix] of fromImports.ids) knowledgeNames.set(id, prefix);
  return { ...inputs, decisions, decisionNames, knowledgeNames, knowledgeModels, services, importedValues: fromImports.values };
}

/** The names of the knowledge an element requires, or what it requires that the model lacks. */
export function knowledgeOf(declared: Declarations, ids: readonly string[], who: string): string[] | string {
  const names: string[] = [];
  for (const id of ids) {
    const known = declared.knowledgeNames.get(id);
    if (known === undefined) return `${who} requires knowledge '#${id}' that the model does not have`;
    if (!names.includes(known)) names.push(known);
  }
  return names;
}
