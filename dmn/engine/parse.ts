import {
  DmnModdle,
  type BusinessKnowledgeModel,
  type Decision,
  type DecisionService,
  type Definitions,
  type ElementReference,
  type InputData,
  type ModdleElement,
} from 'dmn-moddle';
import { mapNamespaces, newerElement } from './namespaces.js';
import { NEWER_BOXED_PACKAGE } from './newer-boxed.js';
import { readExpression, readItemDefinition, tableOf } from './parse-boxed.js';
import type { ParsedDecision, ParsedDecisionService, ParsedInputData, ParsedKnowledgeModel, ParsedModel } from './parsed-model.js';
import { failure, problem, success, type Outcome } from './problem.js';

const moddle = new DmnModdle({ boxed15: NEWER_BOXED_PACKAGE });

function isDefinitions(element: ModdleElement): element is Definitions {
  return element.$type === 'dmn:Definitions';
}

function isKnowledgeModel(element: ModdleElement): element is BusinessKnowledgeModel {
  return element.$type === 'dmn:BusinessKnowledgeModel';
}

function isDecisionService(element: ModdleElement): element is DecisionService {
  return element.$type === 'dmn:DecisionService';
}

function isDecision(element: ModdleElement): element is Decision {
  return element.$type === 'dmn:Decision';
}

function isInputData(element: ModdleElement): element is InputData {
  return element.$type === 'dmn:InputData';
}

// moddle messages span several tab-indented lines (position, nested error); keep them on one.
function oneLine(message: string): string {
  return message.replace(/\s*\n\s*/g, '; ');
}

function target(reference: ElementReference | undefined): string | null {
  const href = reference?.href;
  return href === undefined ? null : href.replace(/^#/, '');
}

const targets = (references: readonly (ElementReference | undefined)[] | undefined) => (references ?? []).map(target).filter((id) => id !== null);

function readDecision(decision: Decision): ParsedDecision {
  const requirements = decision.informationRequirement ?? [];
  const logic = decision.decisionLogic;
  const table = tableOf(logic);
  return {
    id: decision.id ?? null,
    name: decision.name ?? null,
    typeRef: decision.variable?.typeRef ?? null,
    requiredDecisions: targets(requirements.map((r) => r.requiredDecision)),
    requiredInputs: targets(requirements.map((r) => r.requiredInput)),
    requiredKnowledge: targets((decision.knowledgeRequirement ?? []).map((r) => r.requiredKnowledge)),
    table,
    logic: readExpression(logic),
  };
}

function readKnowledgeModel(bkm: BusinessKnowledgeModel): ParsedKnowledgeModel {
  return {
    id: bkm.id ?? null,
    name: bkm.name ?? bkm.variable?.name ?? null,
    requiredKnowledge: targets((bkm.knowledgeRequirement ?? []).map((r) => r.requiredKnowledge)),
    logic: readExpression(bkm.encapsulatedLogic),
  };
}

function readDecisionService(service: DecisionService): ParsedDecisionService {
  return {
    id: service.id ?? null,
    name: service.name ?? service.variable?.name ?? null,
    outputDecisions: targets(service.outputDecision),
    encapsulatedDecisions: targets(service.encapsulatedDecision),
    inputDecisions: targets(service.inputDecision),
    inputData: targets(service.inputData),
  };
}

function readInput(input: InputData): ParsedInputData {
  return { id: input.id ?? null, name: input.name ?? input.variable?.name ?? null, typeRef: input.variable?.typeRef ?? null };
}

/**
 * Reads a DMN 1.3 document (spec 9: the decision file format) into plain data; DMN 1.4 and 1.5
 * documents are read as DMN 1.3 and DMNDI is dropped (`namespaces.ts`). Anything dmn-moddle
 * cannot place (another namespace, unknown elements) is a parse problem rather than a warning,
 * so a typo can never silently drop a rule.
 */
export async function parseModel(xml: string): Promise<Outcome<ParsedModel>> {
  let root: ModdleElement;
  const document = mapNamespaces(xml);
  try {
    const result = await moddle.fromXML(document.xml);
    const warning = result.warnings[0];
    if (warning !== undefined) {
      const newer = document.version === null ? null : newerElement(warning.message, document.version);
      return failure(problem('DMN_PARSE_ERROR', newer ?? oneLine(warning.message)));
    }
    root = result.rootElement;
  } catch (error) {
    return failure(problem('DMN_PARSE_ERROR', oneLine(error instanceof Error ? error.message : String(error))));
  }
  if (!isDefinitions(root)) return failure(problem('DMN_PARSE_ERROR', `root element is ${root.$type}, not DMN definitions`));
  const elements = root.drgElement ?? [];
  return success({
    id: root.id ?? null,
    name: root.name ?? null,
    namespace: root.namespace ?? null,
    imports: (root.import ?? [])
      .filter((i) => i.importType === undefined || i.importType.includes('/DMN/'))
      .map((i) => ({ name: i.name ?? '', namespace: i.namespace ?? '' })),
    itemDefinitions: (root.itemDefinition ?? []).map(readItemDefinition),
    inputs: elements.filter(isInputData).map(readInput),
    decisions: elements.filter(isDecision).map(readDecision),
    knowledgeModels: elements.filter(isKnowledgeModel).map(readKnowledgeModel),
    decisionServices: elements.filter(isDecisionService).map(readDecisionService),
  });
}
