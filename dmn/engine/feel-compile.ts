import { evaluate, isFunction, parseExpression } from 'feelin';
import { arithmetic, negate, type ArithOp } from './feel-arithmetic.js';
import { BUILTINS, builtinsUsedBy } from './feel-builtins.js';
import { CellFailure, InvocationAbort } from './problem.js';

type Node = ReturnType<typeof parseExpression>['topNode'];
type Frame = Record<string, unknown>;

/**
 * Returned by a compiled expression that meets a value it does not handle (a temporal value, a
 * division by zero): the caller then runs the whole expression through feelin instead. FEEL is
 * side-effect free, so running it again is safe.
 */
export const UNSURE = Symbol('left to feelin');
type Compiled = (frame: Frame) => unknown;

const PUNCTUATION = new Set(['(', ')', ',', '.']);

function children(node: Node): Node[] {
  const out: Node[] = [];
  for (let child = node.firstChild; child !== null; child = child.nextSibling) if (!PUNCTUATION.has(child.name)) out.push(child);
  return out;
}

const SCALAR = new Set(['number', 'string', 'boolean']);

// DMN 1.3 section 10.3.2.12 table 49: = and != on null are defined; ordering with null is null.
function comparison(op: string, a: unknown, b: unknown): unknown {
  if (op === '=' || op === '!=') {
    if (a === null || b === null || (SCALAR.has(typeof a) && typeof a === typeof b)) return op === '=' ? a === b : a !== b;
    return UNSURE;
  }
  if (a === null || b === null) return null;
  if (typeof a !== typeof b || (typeof a !== 'number' && typeof a !== 'string')) return UNSURE;
  const x = a as number | string;
  const y = b as number | string;
  return op === '<' ? x < y : op === '<=' ? x <= y : op === '>' ? x > y : op === '>=' ? x >= y : UNSURE;
}

// Three-valued logic (DMN 1.3 section 10.3.2.9.3): a non-boolean operand counts as null.
const truth = (v: unknown) => (v === true ? true : v === false ? false : null);

/** What a node's compiler sees: the source text, the names in scope, and the compiler of child nodes. */
interface Scope {
  readonly text: string;
  readonly names: ReadonlySet<string>;
  compile(node: Node): Compiled | null;
}

/** Compiles one kind of grammar node; null hands the whole expression to feelin. */
type NodeCompiler = (node: Node, parts: Node[], source: string, scope: Scope) => Compiled | null;

/**
 * `left <op> right` where `opName` is the operator's node: each side compiled once; either side
 * unsure hands the whole expression to feelin.
 */
function binary(parts: Node[], scope: Scope, opName: string, apply: (op: string, a: unknown, b: unknown) => unknown): Compiled | null {
  if (parts.length !== 3 || parts[1]?.name !== opName) return null;
  const op = scope.text.slice(parts[1].from, parts[1].to);
  const left = scope.compile(parts[0] as Node);
  const right = scope.compile(parts[2] as Node);
  return (
    left &&
    right &&
    ((frame) => {
      const a = left(frame);
      const b = right(frame);
      return a === UNSURE || b === UNSURE ? UNSURE : apply(op, a, b);
    })
  );
}

const only: NodeCompiler = (_node, parts, _source, scope) => (parts.length === 1 ? scope.compile(parts[0] as Node) : null);

/** DMN 1.3 section 10.3.2.9.3: and / or over three-valued logic. */
const logical: NodeCompiler = (node, parts, _source, scope) => {
  if (parts.length !== 3) return null;
  const left = scope.compile(parts[0] as Node);
  const right = scope.compile(parts[2] as Node);
  const and = node.name === 'Conjunction';
  return (
    left &&
    right &&
    ((frame) => {
      const a = left(frame);
      const b = right(frame);
      if (a === UNSURE || b === UNSURE) return UNSURE;
      const x = truth(a);
      const y = truth(b);
      if (and) return x === false || y === false ? false : x === true && y === true ? true : null;
      return x === true || y === true ? true : x === false && y === false ? false : null;
    })
  );
};

/** A function in scope, else one of our built-ins (feel-builtins.ts); feelin's own run there. */
const invocation: NodeCompiler = (_node, parts, _source, scope) => {
  const [callee, parameters] = parts;
  if (callee?.name !== 'VariableName') return null;
  const name = scope.text.slice(callee.from, callee.to);
  const builtin = scope.names.has(name) ? undefined : BUILTINS[name];
  if (!scope.names.has(name) && builtin === undefined) return null;
  if (parameters !== undefined && parameters.name !== 'PositionalParameters') return null;
  const args = parameters === undefined ? [] : children(parameters).map(scope.compile);
  if (args.some((a) => a === null)) return null;
  const compiledArgs = args as Compiled[];
  return (frame) => {
    const fn = builtin ?? frame[name];
    if (!isFunction(fn)) return UNSURE;
    const values = compiledArgs.map((a) => a(frame));
    if (values.includes(UNSURE)) return UNSURE;
    const result: unknown = fn.invoke(values);
    return typeof result === 'object' && result !== null && 'warning' in result && 'template' in result ? UNSURE : (result ?? null);
  };
};

/** One compiler per grammar node of the subset, keyed by feelin's node names. */
const NODE_COMPILERS: Readonly<Record<string, NodeCompiler>> = {
  Expression: only,
  ParenthesizedExpression: only,
  NumericLiteral: (_node, _parts, source) => {
    const n = Number(source);
    return () => n;
  },
  StringLiteral: (_node, _parts, source) => {
    if (source.includes('\\')) return null;
    const s = source.slice(1, -1);
    return () => s;
  },
  BooleanLiteral: (_node, _parts, source) => {
    const b = source === 'true';
    return () => b;
  },
  null: () => () => null,
  // `date("2024-01-31")`, `duration("P1M")`: constant, so built once, when the model loads.
  DateTimeLiteral: (_node, _parts, source) => {
    if (!/^[\w ]+\("[^"\\]*"\)$/.test(source)) return null;
    const value = evaluate(source, {}, undefined).value;
    return value === null || value === undefined ? null : () => value;
  },
  VariableName: (_node, _parts, source, scope) => (scope.names.has(source) ? (frame) => frame[source] ?? null : null),
  PathExpression: (_node, [target, path], _source, scope) => {
    const base = target && scope.compile(target);
    if (!base || path?.name !== 'PathName') return null;
    const key = scope.text.slice(path.from, path.to);
    return (frame) => {
      const value = base(frame);
      if (value === null) return null;
      if (typeof value !== 'object' || Array.isArray(value) || Object.getPrototypeOf(value) !== Object.prototype || !Object.hasOwn(value, key)) return UNSURE;
      return (value as Frame)[key] ?? null;
    };
  },
  ArithmeticExpression: (_node, parts, _source, scope) => {
    if (parts.length === 2 && parts[0]?.name === 'ArithOp' && scope.text.slice(parts[0].from, parts[0].to) === '-') {
      const operand = scope.compile(parts[1] as Node);
      return (
        operand &&
        ((frame) => {
          const value = operand(frame);
          return value === UNSURE ? UNSURE : negate(value);
        })
      );
    }
    return binary(parts, scope, 'ArithOp', (op, a, b) => arithmetic(op as ArithOp, a, b));
  },
  Comparison: (_node, parts, _source, scope) => binary(parts, scope, 'CompareOp', comparison),
  Conjunction: logical,
  Disjunction: logical,
  IfExpression: (node, _parts, _source, scope) => {
    // Every child, keywords included: `if` condition `then` whenTrue `else` whenFalse.
    const all: Node[] = [];
    for (let child = node.firstChild; child !== null; child = child.nextSibling) all.push(child);
    const [, condition, , whenTrue, , whenFalse] = all;
    const c = condition && scope.compile(condition);
    const t = whenTrue && scope.compile(whenTrue);
    const f = whenFalse && scope.compile(whenFalse);
    if (!c || !t || !f) return null;
    return (frame) => {
      const test = c(frame);
      return test === UNSURE ? UNSURE : test === true ? t(frame) : f(frame);
    };
  },
  FunctionInvocation: invocation,
};

/**
 * Compiles the everyday subset of FEEL (literals, names, paths, arithmetic, comparisons,
 * and/or, if, calls of functions in scope) into closures once, when the model loads; `null`
 * when the text uses anything else, which then runs through feelin on every call.
 */
export function compileFeel(text: string, scope: readonly string[]): Compiled | null {
  const context: Scope = {
    text,
    names: new Set(scope),
    compile: (node) => {
      const compiler = Object.hasOwn(NODE_COMPILERS, node.name) ? NODE_COMPILERS[node.name] : undefined;
      return compiler === undefined ? null : compiler(node, children(node), text.slice(node.from, node.to), context);
    },
  };
  try {
    return context.compile(
      parseExpression(text, Object.fromEntries([...Object.keys(builtinsUsedBy(text)), ...scope].map((n) => [n, null])), undefined).topNode,
    );
  } catch {
    return null;
  }
}

/** Runs a compiled expression, turning a failure thrown by an invoked BKM back into its value. */
export function runCompiled(compiled: Compiled, frame: Frame): unknown {
  try {
    return compiled(frame);
  } catch (error) {
    if (error instanceof InvocationAbort) return error.failure;
    if (error instanceof CellFailure) return error;
    throw error;
  }
}
