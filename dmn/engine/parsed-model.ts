/**
 * A DMN 1.3 model as plain data: what `parseModel` reads out of the XML, before any checking.
 * Compilation validates it; keeping it free of moddle objects lets other hosts build it too.
 */
export interface ParsedModel {
  readonly id: string | null;
  readonly name: string | null;
  readonly inputs: readonly ParsedInputData[];
  readonly decisions: readonly ParsedDecision[];
}

export interface ParsedInputData {
  readonly id: string | null;
  readonly name: string | null;
  readonly typeRef: string | null;
}

export interface ParsedDecision {
  readonly id: string | null;
  readonly name: string | null;
  /** `href` targets of the information requirements, without the leading `#`. */
  readonly requiredDecisions: readonly string[];
  readonly requiredInputs: readonly string[];
  /** The moddle type of the decision logic, e.g. `dmn:LiteralExpression`, when it is not a table. */
  readonly logicType: string | null;
  readonly table: ParsedTable | null;
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
