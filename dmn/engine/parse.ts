import {
  DmnModdle,
  type Decision,
  type DecisionTable,
  type Definitions,
  type ElementReference,
  type InputData,
  type ModdleElement,
} from 'dmn-moddle';
import type { ParsedDecision, ParsedInputData, ParsedModel, ParsedTable } from './parsed-model.js';
import { failure, problem, success, type Outcome } from './problem.js';

const moddle = new DmnModdle();

function isDefinitions(element: ModdleElement): element is Definitions {
  return element.$type === 'dmn:Definitions';
}

function isDecision(element: ModdleElement): element is Decision {
  return element.$type === 'dmn:Decision';
}

function isInputData(element: ModdleElement): element is InputData {
  return element.$type === 'dmn:InputData';
}

function isDecisionTable(element: ModdleElement | undefined): element is DecisionTable {
  return element?.$type === 'dmn:DecisionTable';
}

// moddle messages span several tab-indented lines (position, nested error); keep them on one.
function oneLine(message: string): string {
  return message.replace(/\s*\n\s*/g, '; ');
}

function target(reference: ElementReference | undefined): string | null {
  const href = reference?.href;
  return href === undefined ? null : href.replace(/^#/, '');
}

function readTable(table: DecisionTable): ParsedTable {
  return {
    hitPolicy: table.hitPolicy,
    aggregation: table.aggregation ?? null,
    inputs: (table.input ?? []).map((clause) => ({
      label: clause.label ?? null,
      expression: clause.inputExpression?.text ?? '',
      typeRef: clause.inputExpression?.typeRef ?? null,
      allowedValues: clause.inputValues?.text ?? null,
    })),
    outputs: (table.output ?? []).map((clause) => ({
      name: clause.name ?? null,
      label: clause.label ?? null,
      typeRef: clause.typeRef ?? null,
      allowedValues: clause.outputValues?.text ?? null,
      defaultValue: clause.defaultOutputEntry?.text ?? null,
    })),
    rules: (table.rule ?? []).map((rule) => ({
      id: rule.id ?? null,
      inputEntries: (rule.inputEntry ?? []).map((entry) => entry.text ?? ''),
      outputEntries: (rule.outputEntry ?? []).map((entry) => entry.text ?? ''),
    })),
  };
}

function readDecision(decision: Decision): ParsedDecision {
  const requirements = decision.informationRequirement ?? [];
  const logic = decision.decisionLogic;
  return {
    id: decision.id ?? null,
    name: decision.name ?? null,
    requiredDecisions: requirements.map((r) => target(r.requiredDecision)).filter((id) => id !== null),
    requiredInputs: requirements.map((r) => target(r.requiredInput)).filter((id) => id !== null),
    logicType: isDecisionTable(logic) ? null : (logic?.$type ?? null),
    table: isDecisionTable(logic) ? readTable(logic) : null,
  };
}

function readInput(input: InputData): ParsedInputData {
  return { id: input.id ?? null, name: input.name ?? input.variable?.name ?? null, typeRef: input.variable?.typeRef ?? null };
}

/**
 * Reads a DMN 1.3 document (spec 9: the decision file format) into plain data. Anything
 * dmn-moddle cannot place (another DMN namespace, unknown elements) is a parse problem rather
 * than a warning, so a typo can never silently drop a rule.
 */
export async function parseModel(xml: string): Promise<Outcome<ParsedModel>> {
  let root: ModdleElement;
  try {
    const result = await moddle.fromXML(xml);
    const warning = result.warnings[0];
    if (warning !== undefined) return failure(problem('DMN_PARSE_ERROR', oneLine(warning.message)));
    root = result.rootElement;
  } catch (error) {
    return failure(problem('DMN_PARSE_ERROR', oneLine(error instanceof Error ? error.message : String(error))));
  }
  if (!isDefinitions(root)) return failure(problem('DMN_PARSE_ERROR', `root element is ${root.$type}, not DMN 1.3 definitions`));
  const elements = root.drgElement ?? [];
  return success({
    id: root.id ?? null,
    name: root.name ?? null,
    inputs: elements.filter(isInputData).map(readInput),
    decisions: elements.filter(isDecision).map(readDecision),
  });
}
