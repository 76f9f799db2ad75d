/**
 * A DMN 1.3 model as plain data: what `parseModel` reads out of the XML, before any checking.
 * Compilation validates it; keeping it free of moddle objects lets other hosts build it too.
 */
export interface ParsedModel {
  readonly id: string | null;
  readonly name: string | null;
  /** The definitions' namespace URI: what another model imports it by (DMN 1.3 section 6.3.3). */
  readonly namespace: string | null;
  readonly imports: readonly ParsedImport[];
  readonly itemDefinitions: readonly ParsedItemDefinition[];
  readonly inputs: readonly ParsedInputData[];
  readonly decisions: readonly ParsedDecision[];
  readonly knowledgeModels: readonly ParsedKnowledgeModel[];
  readonly decisionServices: readonly ParsedDecisionService[];
}

/** DMN 1.3 section 6.3.3: another model's elements, named in this one as `name.element`. */
export interface ParsedImport {
  readonly name: string;
  readonly namespace: string;
}

/** DMN 1.3 section 7.3.2: a named type, a structure of components, a collection, allowed values. */
export interface ParsedItemDefinition {
  readonly name: string | null;
  readonly typeRef: string | null;
  readonly allowedValues: string | null;
  readonly isCollection: boolean;
  readonly components: readonly ParsedItemDefinition[];
}

export interface ParsedInputData {
  readonly id: string | null;
  readonly name: string | null;
  readonly typeRef: string | null;
}

export interface ParsedDecision {
  readonly id: string | null;
  readonly name: string | null;
  /** The typeRef of the decision's variable: what its result must conform to. */
  readonly typeRef: string | null;
  /** `href` targets of the information requirements, without the leading `#`. */
  readonly requiredDecisions: readonly string[];
  readonly requiredInputs: readonly string[];
  /** `href` targets of the knowledge requirements (BKMs and decision services it invokes). */
  readonly requiredKnowledge: readonly string[];
  readonly table: ParsedTable | null;
  /** Any decision logic; for a table, `{ kind: 'table' }` of the same table. */
  readonly logic: ParsedExpression | null;
}

/** DMN 1.3 section 10.3: a business knowledge model, a function with parameters. */
export interface ParsedKnowledgeModel {
  readonly id: string | null;
  readonly name: string | null;
  readonly requiredKnowledge: readonly string[];
  readonly logic: ParsedExpression | null;
}

/** DMN 1.3 section 10.4: a decision service, callable like a function of its inputs. */
export interface ParsedDecisionService {
  readonly id: string | null;
  readonly name: string | null;
  readonly outputDecisions: readonly string[];
  readonly encapsulatedDecisions: readonly string[];
  readonly inputDecisions: readonly string[];
  readonly inputData: readonly string[];
}

export interface ParsedParameter {
  readonly name: string;
  readonly typeRef: string | null;
}

/** The boxed expressions of DMN 1.3 chapter 10 (and decision tables, chapter 8), with DMN 1.5's conditional, iterators and filter. */
export type ParsedExpression =
  | { readonly kind: 'literal'; readonly text: string; readonly typeRef: string | null }
  | { readonly kind: 'table'; readonly table: ParsedTable; readonly typeRef: string | null }
  | { readonly kind: 'context'; readonly entries: readonly ParsedContextEntry[]; readonly typeRef: string | null }
  | { readonly kind: 'list'; readonly items: readonly ParsedExpression[]; readonly typeRef: string | null }
  | { readonly kind: 'relation'; readonly columns: readonly string[]; readonly rows: readonly (readonly ParsedExpression[])[]; readonly typeRef: string | null }
  | { readonly kind: 'invocation'; readonly callee: string; readonly bindings: readonly ParsedBinding[]; readonly typeRef: string | null }
  | {
      readonly kind: 'function';
      readonly parameters: readonly ParsedParameter[];
      readonly body: ParsedExpression | null;
      readonly functionKind: string;
      readonly typeRef: string | null;
    }
  | {
      readonly kind: 'conditional';
      readonly if: ParsedExpression | null;
      readonly then: ParsedExpression | null;
      readonly else: ParsedExpression | null;
      readonly typeRef: string | null;
    }
  | {
      readonly kind: 'iterator';
      readonly iterator: 'for' | 'some' | 'every';
      readonly variable: string;
      readonly in: ParsedExpression | null;
      readonly body: ParsedExpression | null;
      readonly typeRef: string | null;
    }
  | { readonly kind: 'filter'; readonly in: ParsedExpression | null; readonly match: ParsedExpression | null; readonly typeRef: string | null }
  | { readonly kind: 'unsupported'; readonly type: string; readonly typeRef: null };

export interface ParsedContextEntry {
  /** Null for the final result entry (DMN 1.3 section 10.3.2.3). */
  readonly name: string | null;
  readonly typeRef: string | null;
  readonly value: ParsedExpression | null;
}

export interface ParsedBinding {
  readonly name: string;
  readonly value: ParsedExpression | null;
}

export interface ParsedTable {
  readonly hitPolicy: string;
  readonly aggregation: string | null;
  readonly inputs: readonly ParsedInputClause[];
  readonly outputs: readonly ParsedOutputClause[];
  readonly rules: readonly ParsedRule[];
}

export interface ParsedInputClause {
  readonly label: string | null;
  readonly expression: string;
  readonly typeRef: string | null;
  readonly allowedValues: string | null;
}

export interface ParsedOutputClause {
  readonly name: string | null;
  readonly label: string | null;
  readonly typeRef: string | null;
  readonly allowedValues: string | null;
  readonly defaultValue: string | null;
}

export interface ParsedRule {
  readonly id: string | null;
  readonly inputEntries: readonly string[];
  readonly outputEntries: readonly string[];
}
