import { parseExpression, parseUnaryTests } from 'feelin';
import { LOOP_FUNCTIONS, OPERATOR_FUNCTIONS } from './feel-builtins.js';
import type { ArithOp } from './feel-arithmetic.js';

type Node = ReturnType<typeof parseExpression>['topNode'];
export type Grammar = 'unary tests' | 'expression';

const OPERATORS = new Set<string>(['+', '-', '*', '/', '**']);

/**
 * Rewrites the arithmetic of a FEEL text into calls of the operator functions of
 * `feel-builtins.ts` (`a * b` becomes `ƒmultiply((a), (b))`), once, when the model loads, so
 * feelin evaluates FEEL's arithmetic (DMN 1.3 section 10.3.2.12: decimals, durations scaled and
 * negated) instead of its own. Loops get the guards of `deadline.ts`: each iteration source
 * counts its items (`i in L` becomes `i in ƒeach((L))`, `i in a..b` becomes
 * `i in (a)..ƒupto((a), (b))`) and each step ticks (`return e` becomes `return ƒstep((e))`, and
 * likewise after `satisfies`). Text that does not parse is returned unchanged.
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
    const loop = loopRewrite(node, kids, render);
    if (loop !== null) return loop;
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

/** The loop guards (see rewriteOperators), or null for any other node. */
function loopRewrite(node: Node, kids: readonly Node[], render: (node: Node) => string): string | null {
  if (node.name === 'IterationContext') {
    const [from, dots, to] = kids;
    if (kids.length === 3 && from && dots?.name === '..' && to) return `(${render(from)})..${LOOP_FUNCTIONS.upto}((${render(from)}), (${render(to)}))`;
    if (kids.length === 1 && from) return `${LOOP_FUNCTIONS.each}((${render(from)}))`;
    return null;
  }
  if (node.name !== 'ForExpression' && node.name !== 'QuantifiedExpression') return null;
  const step = kids[kids.length - 1];
  if (kids.length !== 4 || step === undefined) return null;
  const head = kids.slice(0, 3).map(render).join(' ');
  return `${head} ${LOOP_FUNCTIONS.step}((${render(step)}))`;
}
