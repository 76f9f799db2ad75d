import type { FeelFunction } from 'feelin';
import { feelFunction, type Frame } from './compile-boxed.js';
import type { CompiledStep, InputDeclaration } from './compiled-model.js';
import { requiredClosure } from './dependency-order.js';
import type { ParsedDecisionService } from './parsed-model.js';
import { CellFailure } from './problem.js';
import type { Slots } from './slots.js';
import { anyType } from './type-ref.js';

/**
 * A decision as another model imports it (DMN 1.3 section 6.3.3): a function of the input data
 * it and the decisions it requires read, built like a decision service with that one output.
 */
export function decisionFunction(
  id: string,
  reads: ReadonlyMap<string, readonly InputDeclaration[]>,
  model: ServiceContext,
): { name: string; fn: FeelFunction } | undefined {
  const name = model.decisionNames.get(id);
  if (name === undefined) return undefined;
  const idOf = new Map([...model.inputsById].map(([inputId, input]) => [input, inputId]));
  const inputIds = new Set<string>();
  for (const decision of requiredClosure(name, model.requires)) for (const input of reads.get(decision) ?? []) inputIds.add(idOf.get(input) ?? '');
  inputIds.delete('');
  const fn = compileService({ id, name, outputDecisions: [id], encapsulatedDecisions: [], inputDecisions: [], inputData: [...inputIds] }, model);
  return typeof fn === 'string' ? undefined : { name, fn };
}

export interface ServiceContext {
  readonly decisionNames: ReadonlyMap<string, string>;
  readonly inputsById: ReadonlyMap<string, InputDeclaration>;
  readonly requires: ReadonlyMap<string, readonly string[]>;
  readonly steps: readonly CompiledStep[];
  readonly slot: (name: string) => number;
  readonly slotCount: number;
  readonly constants: readonly (readonly [number, unknown])[];
}

/**
 * DMN 1.3 section 10.4: a decision service is a function whose parameters are its input
 * decisions, then its input data; it evaluates its output decisions (and the encapsulated ones
 * they need) and returns the one output, or a context of them by name.
 */
export function compileService(service: ParsedDecisionService & { name: string }, model: ServiceContext): FeelFunction | string {
  const where = `decision service '${service.name}'`;
  const decisionsOf = (ids: readonly string[]) => ids.map((id) => model.decisionNames.get(id) ?? null);
  const outputs = decisionsOf(service.outputDecisions);
  const inputDecisions = decisionsOf(service.inputDecisions);
  if (outputs.length === 0) return `${where} has no output decision`;
  if (outputs.includes(null) || inputDecisions.includes(null)) return `${where} names a decision the model does not have`;
  const inputs = service.inputData.map((id) => model.inputsById.get(id) ?? null);
  if (inputs.includes(null)) return `${where} names input data the model does not have`;
  const stopAt = new Set(inputDecisions as string[]);
  const needed = new Set<string>();
  for (const output of outputs as string[]) requiredClosure(output, model.requires, needed, stopAt);
  const steps = model.steps.filter((step) => needed.has(step.decision));
  const parameters = [
    ...(inputDecisions as string[]).map((name) => ({ name, check: anyType })),
    ...(inputs as InputDeclaration[]).map((input) => ({ name: input.name, check: input.conform })),
  ];
  const body = (frame: Frame): unknown => {
    const slots: Slots = new Array<unknown>(model.slotCount);
    for (const [at, value] of model.constants) slots[at] = value;
    for (const parameter of parameters) slots[model.slot(parameter.name)] = frame[parameter.name];
    for (const step of steps) {
      const outcome = step.run(slots);
      if (!outcome.ok)
        return new CellFailure(outcome.error.message, [where, `decision '${step.decision}'`, outcome.error.cell].filter((p) => p !== null).join(', '));
      slots[step.slot] = outcome.value;
    }
    const names = outputs as string[];
    return names.length === 1 ? slots[model.slot(names[0] as string)] : Object.fromEntries(names.map((n) => [n, slots[model.slot(n)]]));
  };
  return feelFunction(parameters, where, body, () => ({}));
}
