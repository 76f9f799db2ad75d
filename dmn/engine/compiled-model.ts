import type { FeelFunction } from 'feelin';
import type { HitPolicy } from './hit-policy.js';
import type { Outcome } from './problem.js';
import type { Slots } from './slots.js';
import type { Conform } from './type-ref.js';
import type { UnaryTest } from './unary-test.js';

/** An input the model declares (or a table reads by name), with the check of its typeRef. */
export interface InputDeclaration {
  readonly name: string;
  readonly conform: Conform;
}

/** Reads a value from the evaluation's slots, or a `CellFailure` naming what went wrong. */
export type Reader = (slots: Slots) => unknown;

export interface CompiledInputClause {
  readonly cell: string;
  /** Input expression, typeRef check and input values check in one step. */
  readonly read: Reader;
}

export interface CompiledRule {
  /** 1-based position in the table; 0 for the default outputs. */
  readonly number: number;
  /** Only the cells that test something: `-` cells are dropped at compile time. */
  readonly tests: readonly { readonly input: number; readonly test: UnaryTest }[];
  /** The rule's outputs, checked against typeRef and output values. */
  readonly row: Reader;
}

export interface CompiledTable {
  readonly decision: string;
  /** Where the decision's result goes, for the decisions that require it. */
  readonly slot: number;
  readonly inputs: readonly CompiledInputClause[];
  readonly rules: readonly CompiledRule[];
  /** The default output entries acting as the only hit when no rule matches. */
  readonly defaults: CompiledRule | null;
  readonly policy: HitPolicy;
  /** Every result is JSON as computed (all outputs are literals), so none needs converting. */
  readonly json: boolean;
}

/** One decision as the evaluation runs it: a compiled table or any other boxed expression. */
export interface CompiledStep {
  readonly decision: string;
  /** Where the decision's result goes, for the decisions that require it. */
  readonly slot: number;
  /** Every result is JSON as computed, so none needs converting. */
  readonly json: boolean;
  run(slots: Slots): Outcome<unknown>;
}

export interface PlanInput {
  readonly name: string;
  readonly slot: number;
  /** The name is also a property every object inherits (`toString`), so presence needs an own-property check. */
  readonly inherited: boolean;
  readonly conform: Conform;
  /** The first decision (in evaluation order) that reads it, for error messages; null when none does. */
  readonly readBy: string | null;
}

/** What evaluating one decision (or the whole model) takes: its inputs and tables in dependency order. */
export interface Plan {
  readonly inputs: readonly PlanInput[];
  readonly steps: readonly CompiledStep[];
  /** Decisions whose results are returned: the one asked for, or all of them. */
  readonly returned: readonly CompiledStep[];
  /** The results object with every returned decision already a key, so filling it adds no property. */
  readonly results: Readonly<Record<string, null>>;
}

export interface CompiledModel {
  readonly name: string;
  /** Decision names in dependency order. */
  readonly decisions: readonly string[];
  /** Every input the model declares; evaluating all decisions needs all of them (spec 2.8). */
  readonly inputs: readonly string[];
  /** How many slots an evaluation needs: one per input, one per decision, one per BKM and decision service. */
  readonly slotCount: number;
  /** Values every evaluation starts with: the business knowledge models and decision services, by slot. */
  readonly constants: readonly (readonly [slot: number, value: unknown])[];
  readonly all: Plan;
  readonly byDecision: ReadonlyMap<string, Plan>;
  /** What a model importing this one may use (DMN 1.3 section 6.3.3, `imports.ts`). */
  readonly exported: ExportedModel;
}

/** A model's item definitions and knowledge, as another model imports them. */
export interface ExportedModel {
  readonly namespace: string | null;
  /** Checks for the model's item definitions, by local name. */
  readonly types: (typeRef: string) => ((value: unknown) => unknown) | undefined;
  /** Business knowledge models and decision services as FEEL functions, by name. */
  readonly knowledge: Readonly<Record<string, unknown>>;
  /** Element id -> name of that knowledge, for requirements written `namespace#id`. */
  readonly knowledgeIds: ReadonlyMap<string, string>;
  /** A decision by element id, as a FEEL function of the input data it reads (by name). */
  readonly decision: (id: string) => { readonly name: string; readonly fn: FeelFunction } | undefined;
}
