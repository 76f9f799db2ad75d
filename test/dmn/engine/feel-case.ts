import test from 'ava';
import { evaluate, loadModel } from '../../../dmn/engine/index.js';

/**
 * One FEEL case: the DMN section it checks, a literal expression, its inputs
 * (name -> [typeRef, JSON value]) and the expected JSON result.
 */
export type FeelCase = [section: string, expression: string, inputs: Record<string, [string, unknown]>, expected: unknown];

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
const typeXml = (name: string, typeRef: string) =>
  `<inputData id="i_${name}" name="${name}"><variable name="${name}" typeRef="${escapeXml(typeRef)}"/></inputData>`;

/** A DMN 1.3 model whose decision `D` is the literal expression, reading the inputs. */
export function literalModel(expression: string, inputs: Record<string, [string, unknown]>): string {
  const names = Object.keys(inputs);
  return (
    `<?xml version="1.0" encoding="UTF-8"?><definitions xmlns="https://www.omg.org/spec/DMN/20191111/MODEL/" id="f" name="Feel" namespace="urn:test">` +
    names.map((n) => typeXml(n, (inputs[n] as [string, unknown])[0])).join('') +
    `<decision id="d" name="D"><variable name="D"/>${names.map((n) => `<informationRequirement><requiredInput href="#i_${n}"/></informationRequirement>`).join('')}` +
    `<literalExpression><text>${escapeXml(expression)}</text></literalExpression></decision></definitions>`
  );
}

async function run(expression: string, inputs: Record<string, [string, unknown]>): Promise<unknown> {
  const model = await loadModel(literalModel(expression, inputs));
  if (!model.ok) return { loadError: model.error.message };
  const outcome = evaluate(model.value, Object.fromEntries(Object.entries(inputs).map(([n, [, v]]) => [n, v])));
  return outcome.ok ? outcome.results.D : { error: outcome.error.message };
}

/**
 * Registers one test per case. Each expression is evaluated as written (our compiled subset
 * where it reaches) and inside a filter, `[(e)][1]`, which only feelin evaluates: both paths
 * must give the spec's answer.
 */
export function feelCases(prefix: string, cases: readonly FeelCase[]): void {
  for (const [section, expression, inputs, expected] of cases) {
    const given = Object.keys(inputs).length === 0 ? '' : ` with ${JSON.stringify(Object.fromEntries(Object.entries(inputs).map(([k, [, v]]) => [k, v])))}`;
    test(`${prefix} section ${section}: ${expression}${given} is ${JSON.stringify(expected)}`, async (t) => {
      t.deepEqual(await run(expression, inputs), expected, 'as written');
      t.deepEqual(await run(`[(${expression})][1]`, inputs), expected, 'through feelin');
    });
  }
}
