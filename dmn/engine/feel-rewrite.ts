import { parseExpression, parseUnaryTests } from 'feelin';
import { OPERATOR_FUNCTIONS } from './feel-builtins.js';
import type { ArithOp } from './feel-arithmetic.js';

type Node = ReturnType<typeof parseExpression>['topNode'];
export type Grammar = 'unary tests' | 'expression';

const OPERATORS = new Set<string>(['+', '-', '*', '/', '**']);

/**
 * Rewrites the arithmetic of a FEEL text into calls of the operator functions of
 * `feel-builtins.ts` (`a * b` becomes `ƒmultiply((a), (b))`), once, when the model loads, so
 * feelin evaluates FEEL's arithmetic (DMN 1.3 section 10.3.2.12: decimals, durations scaled and
 * negated) instead of its own. Text that does not parse is returned unchanged.
 */
export function rewriteOperators(text: string, grammar: Grammar, scope: readonly string[]): string {
  const context = Object.fromEntries(scope.map((name) => [name, null]));
  let tree: ReturnType<typeof parseExpression>;
  try {
    tree = grammar === 'unary tests' ? parseUnaryTests(text, context, undefined) : parseExpression(text, context, undefined);
  } catch {
    return text;
  }
  let broken = false;
  const render = (node: Node): string => {
    if (node.type.isError) broken = true;
    const kids: Node[] = [];
    for (let child = node.firstChild; child !== null; child = child.nextSibling) kids.push(child);
    if (node.name === 'ArithmeticExpression') {
      const [first, second, third] = kids;
      if (kids.length === 3 && first && second?.name === 'ArithOp' && third) {
        const op = text.slice(second.from, second.to);
        const fn = OPERATORS.has(op) ? OPERATOR_FUNCTIONS[op as ArithOp] : null;
        if (fn !== null) return `${fn}((${render(first)}), (${render(third)}))`;
      }
      if (kids.length === 2 && first?.name === 'ArithOp' && text.slice(first.from, first.to) === '-' && second && second.name !== 'NumericLiteral') {
        return `${OPERATOR_FUNCTIONS.negate}((${render(second)}))`;
      }
    }
    let out = '';
    let at = node.from;
    for (const child of kids) {
      out += text.slice(at, child.from) + render(child);
      at = child.to;
    }
    return out + text.slice(at, node.to);
  };
  const rewritten = render(tree.topNode);
  return broken ? text : rewritten;
}
