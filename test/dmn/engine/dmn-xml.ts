import { compileModel, evaluate, parseModel, type CompiledModel, type EvaluationResult, type Outcome } from '../../../dmn/engine/index.js';

/** A decision table written as rows, so tests read like the tables in the DMN specification. */
export interface TableSpec {
  name?: string;
  hitPolicy?: string;
  aggregation?: string;
  /** Input data this decision requires (drawn as information requirements). */
  reads?: string[];
  /** Decisions this decision requires. */
  requires?: string[];
  inputs: Array<{ expression: string; typeRef?: string; values?: string }>;
  outputs: Array<{ name?: string; typeRef?: string; values?: string; default?: string }>;
  rules: Array<[inputEntries: string[], outputEntries: string[]]>;
}

export interface ModelSpec {
  name?: string;
  inputData?: Array<{ name: string; typeRef?: string }>;
  decisions: TableSpec[];
}

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const id = (kind: 'input' | 'decision', name: string) => `${kind}_${name.replace(/[^A-Za-z0-9_]/g, '_')}`;
const attr = (name: string, value: string | undefined) => (value === undefined ? '' : ` ${name}="${escapeXml(value).replace(/"/g, '&quot;')}"`);
const text = (body: string) => `<text>${escapeXml(body)}</text>`;

function decisionXml(spec: TableSpec): string {
  const name = spec.name ?? 'Decision';
  const requirements = [
    ...(spec.reads ?? []).map((input) => `<informationRequirement><requiredInput href="#${id('input', input)}"/></informationRequirement>`),
    ...(spec.requires ?? []).map((decision) => `<informationRequirement><requiredDecision href="#${id('decision', decision)}"/></informationRequirement>`),
  ];
  const inputs = spec.inputs.map(
    (input) =>
      `<input><inputExpression${attr('typeRef', input.typeRef)}>${text(input.expression)}</inputExpression>` +
      `${input.values === undefined ? '' : `<inputValues>${text(input.values)}</inputValues>`}</input>`,
  );
  const outputs = spec.outputs.map(
    (output) =>
      `<output${attr('name', output.name)}${attr('typeRef', output.typeRef)}>` +
      `${output.values === undefined ? '' : `<outputValues>${text(output.values)}</outputValues>`}` +
      `${output.default === undefined ? '' : `<defaultOutputEntry>${text(output.default)}</defaultOutputEntry>`}</output>`,
  );
  const rules = spec.rules.map(
    ([ins, outs]) =>
      `<rule>${ins.map((entry) => `<inputEntry>${text(entry)}</inputEntry>`).join('')}` +
      `${outs.map((entry) => `<outputEntry>${text(entry)}</outputEntry>`).join('')}</rule>`,
  );
  return (
    `<decision id="${id('decision', name)}" name="${escapeXml(name)}">${requirements.join('')}` +
    `<decisionTable${attr('hitPolicy', spec.hitPolicy)}${attr('aggregation', spec.aggregation)}>` +
    `${inputs.join('')}${outputs.join('')}${rules.join('')}</decisionTable></decision>`
  );
}

/** A DMN 1.3 document for the model. */
export function dmnXml(model: ModelSpec): string {
  const inputData = (model.inputData ?? []).map(
    (input) =>
      `<inputData id="${id('input', input.name)}" name="${escapeXml(input.name)}"><variable name="${escapeXml(input.name)}"${attr('typeRef', input.typeRef)}/></inputData>`,
  );
  return (
    `<?xml version="1.0" encoding="UTF-8"?>` +
    `<definitions xmlns="https://www.omg.org/spec/DMN/20191111/MODEL/" id="definitions" name="${escapeXml(model.name ?? 'Test')}" namespace="urn:test">` +
    `${inputData.join('')}${model.decisions.map(decisionXml).join('')}</definitions>`
  );
}

export async function compileXml(xml: string): Promise<Outcome<CompiledModel>> {
  const parsed = await parseModel(xml);
  return parsed.ok ? compileModel(parsed.value) : parsed;
}

/** Compiles the model or fails the test with the compile problem. */
export async function compiled(model: ModelSpec): Promise<CompiledModel> {
  const outcome = await compileXml(dmnXml(model));
  if (!outcome.ok) throw new Error(`model does not compile: ${JSON.stringify(outcome.error)}`);
  return outcome.value;
}

/** Evaluates a single-table model and returns that decision's result, or the evaluation error. */
export async function evaluateTable(spec: TableSpec, inputs: Record<string, unknown>): Promise<EvaluationResult> {
  return evaluate(await compiled({ decisions: [spec] }), inputs);
}

/** The result of the table named `Decision`, or the error as a value the test can compare. */
export async function decide(spec: TableSpec, inputs: Record<string, unknown>): Promise<unknown> {
  const result = await evaluateTable(spec, inputs);
  return result.ok ? result.results[spec.name ?? 'Decision'] : { error: result.error };
}
