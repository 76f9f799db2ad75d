import type { CompiledStep, ExportedModel, InputDeclaration, Plan, PlanInput } from './compiled-model.js';
import { decisionFunction, type ServiceContext } from './compile-service.js';
import { requiredClosure } from './dependency-order.js';
import type { TypeResolver } from './item-definition.js';
import type { Declarations } from './model-declarations.js';
import type { Requirements } from './model-requirements.js';
import type { ParsedModel } from './parsed-model.js';

/**
 * Compile phases "slots" and "plan" (compile-model.ts): where each value of an evaluation lives,
 * and what evaluating the whole model, one decision or one decision service takes.
 */

export interface SlotLayout {
  readonly count: number;
  readonly slot: (name: string) => number;
  /** The slot of the input data given under an import prefix. */
  readonly importInputSlot: (prefix: string) => number;
  /** An input's slot: an import prefix's input data, else the input by name. */
  readonly inputSlot: (name: string) => number;
}

/**
 * One slot per input, decision and piece of knowledge. An import prefix names the imported
 * knowledge and decisions; the input data given under it has a slot of its own, read by the step
 * that evaluates the imported decisions.
 */
export function slotLayout(declared: Declarations, needs: Requirements): SlotLayout {
  const inputNames = new Set([...declared.inputsByName.keys(), ...[...needs.reads.values()].flat().map((i) => i.name)]);
  const importInput = (prefix: string) => `${prefix} (imported input data)`;
  const names = [...new Set([...inputNames, ...needs.order, ...declared.knowledgeNames.values(), ...[...needs.importNeeds.keys()].map(importInput)])];
  const slotOf = new Map(names.map((name, at) => [name, at]));
  const slot = (name: string) => slotOf.get(name) as number;
  const importInputSlot = (prefix: string) => slot(importInput(prefix));
  return { count: names.length, slot, importInputSlot, inputSlot: (name) => (needs.importNeeds.has(name) ? importInputSlot(name) : slot(name)) };
}

function planInput(input: InputDeclaration, slot: number, readBy: string | null): PlanInput {
  return { ...input, slot, readBy, inherited: input.name in Object.prototype };
}

function planFor(steps: readonly CompiledStep[], reads: Requirements['reads'], slot: (name: string) => number, returned: readonly CompiledStep[]): Plan {
  const inputs: PlanInput[] = [];
  for (const step of steps) {
    for (const input of reads.get(step.decision) ?? []) {
      if (!inputs.some((i) => i.name === input.name)) inputs.push(planInput(input, slot(input.name), step.decision));
    }
  }
  return { inputs, steps, returned, results: Object.fromEntries(returned.map((step) => [step.decision, null])) };
}

export interface Plans {
  readonly all: Plan;
  readonly byDecision: ReadonlyMap<string, Plan>;
  /** The model's own decisions (not the import steps), in dependency order. */
  readonly ownSteps: readonly CompiledStep[];
}

export function planModel(declared: Declarations, needs: Requirements, layout: SlotLayout, steps: readonly CompiledStep[]): Plans {
  const ownSteps = steps.filter((step) => !needs.importNeeds.has(step.decision));
  const plan = (planSteps: readonly CompiledStep[], returned: readonly CompiledStep[]) => planFor(planSteps, needs.reads, layout.inputSlot, returned);
  const whole = plan(steps, ownSteps);
  // Spec 2.8: every input the model declares must be supplied, even one no decision reads yet.
  const unread = [...declared.inputsByName.values()].filter((input) => !whole.inputs.some((i) => i.name === input.name));
  const all: Plan = { ...whole, inputs: [...whole.inputs, ...unread.map((input) => planInput(input, layout.slot(input.name), null))] };
  const byDecision = new Map(
    ownSteps.map((step) => {
      const closure = requiredClosure(step.decision, needs.requires);
      return [
        step.decision,
        plan(
          steps.filter((s) => closure.has(s.decision)),
          [step],
        ),
      ] as const;
    }),
  );
  // A decision service asked for by name evaluates its output decisions (DMN 1.3 section 10.4),
  // from the inputs they need.
  for (const service of declared.services) {
    const outputs = service.outputDecisions.map((id) => declared.decisionNames.get(id) as string);
    const closure = new Set<string>();
    for (const output of outputs) requiredClosure(output, needs.requires, closure);
    byDecision.set(
      service.name,
      plan(
        steps.filter((s) => closure.has(s.decision)),
        steps.filter((s) => outputs.includes(s.decision)),
      ),
    );
  }
  return { all, byDecision, ownSteps };
}

/** What a model importing this one may use (DMN 1.3 section 6.3.3). */
export function exportModel(
  parsed: ParsedModel,
  localTypes: TypeResolver,
  library: Readonly<Record<string, unknown>>,
  needs: Requirements,
  services: ServiceContext,
): ExportedModel {
  const ownKnowledge = new Map(
    [...parsed.knowledgeModels, ...parsed.decisionServices].filter((k) => k.id && k.name).map((k) => [k.id as string, k.name as string]),
  );
  return {
    namespace: parsed.namespace,
    types: (typeRef: string) => localTypes(typeRef),
    knowledge: Object.fromEntries([...ownKnowledge.values()].map((k) => [k, library[k]])),
    knowledgeIds: ownKnowledge,
    decision: (id: string) => decisionFunction(id, needs.reads, services),
  };
}
