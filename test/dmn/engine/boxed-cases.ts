/**
 * Table-driven cases for the boxed expressions of DMN 1.3: one line per case, a DRG
 * snippet, the inputs, and the expected result of decision `D` or the expected problem.
 */
export interface BoxedCase {
  /** DMN 1.3 section the case exercises. */
  section: string;
  title: string;
  /** Elements placed inside `<definitions>`. */
  xml: string;
  inputs: Record<string, unknown>;
  /** Expected result of decision `D`, or an error/problem to match. */
  expect: { value: unknown } | { error: RegExp; cell?: string } | { value: unknown; problem: RegExp } | { compile: RegExp };
}

const input = (name: string, typeRef = 'Any') => `<inputData id="i_${name}" name="${name}"><variable name="${name}" typeRef="${typeRef}"/></inputData>`;
const reads = (...names: string[]) => names.map((n) => `<informationRequirement><requiredInput href="#i_${n}"/></informationRequirement>`).join('');
const knows = (...names: string[]) => names.map((n) => `<knowledgeRequirement><requiredKnowledge href="#k_${n}"/></knowledgeRequirement>`).join('');
const literal = (text: string, typeRef?: string) => `<literalExpression${typeRef ? ` typeRef="${typeRef}"` : ''}><text>${text}</text></literalExpression>`;
const decision = (body: string, requirements = '', typeRef?: string) =>
  `<decision id="d_D" name="D"><variable name="D"${typeRef ? ` typeRef="${typeRef}"` : ''}/>${requirements}${body}</decision>`;
const bkm = (name: string, params: string[], body: string, requirements = '') =>
  `<businessKnowledgeModel id="k_${name}" name="${name}">${requirements}<encapsulatedLogic>` +
  `${params.map((p) => `<formalParameter name="${p}"/>`).join('')}${body}</encapsulatedLogic></businessKnowledgeModel>`;
const entry = (name: string | null, body: string, typeRef?: string) =>
  `<contextEntry>${name === null ? '' : `<variable name="${name}"${typeRef ? ` typeRef="${typeRef}"` : ''}/>`}${body}</contextEntry>`;
const item = (name: string, inner: string, attrs = '') => `<itemDefinition name="${name}"${attrs}>${inner}</itemDefinition>`;

const feeTable =
  `<decisionTable hitPolicy="FIRST"><input><inputExpression typeRef="number"><text>amount</text></inputExpression></input>` +
  `<output name="fee" typeRef="number"/>` +
  `<rule><inputEntry><text>&lt; 100</text></inputEntry><outputEntry><text>5</text></outputEntry></rule>` +
  `<rule><inputEntry><text>-</text></inputEntry><outputEntry><text>amount * 0.1</text></outputEntry></rule></decisionTable>`;

export const BOXED_CASES: BoxedCase[] = [
  // Literal expressions (DMN 1.3 section 10.3.2.1)
  {
    section: '10.3.2.1',
    title: 'a literal expression over an input',
    xml: input('a', 'number') + decision(literal('a * 2 + 1'), reads('a')),
    inputs: { a: 4 },
    expect: { value: 9 },
  },
  {
    section: '10.3.2.1',
    title: 'a literal string concatenation',
    xml: input('n', 'string') + decision(literal('"hello " + n'), reads('n')),
    inputs: { n: 'x' },
    expect: { value: 'hello x' },
  },
  {
    section: '10.3.2.1',
    title: 'an if expression',
    xml: input('a', 'number') + decision(literal('if a &gt; 3 then "big" else "small"'), reads('a')),
    inputs: { a: 2 },
    expect: { value: 'small' },
  },
  {
    section: '10.3.2.1',
    title: 'a name not in scope is an error naming the expression',
    xml: input('a', 'number') + decision(literal('b + 1')),
    inputs: { a: 1 },
    expect: { error: /No variable found|not found|variable/i, cell: 'literal expression' },
  },
  {
    section: '10.3.2.1',
    title: 'the decision typeRef is checked on the result',
    xml: input('a', 'number') + decision(literal('"x"'), reads('a'), 'number'),
    inputs: { a: 1 },
    expect: { error: /does not conform to typeRef 'number'/ },
  },
  // Reading structured outputs by path (section 10.3.1.1 path expressions)
  {
    section: '10.3.1.1',
    title: "a decision reads another decision's structured output by path",
    xml:
      input('a', 'number') +
      `<decision id="d_P" name="P"><variable name="P"/>${reads('a')}<context>${entry('total', literal('a + 1'))}${entry('label', literal('"L"'))}</context></decision>` +
      decision(literal('P.total * 10'), '<informationRequirement><requiredDecision href="#d_P"/></informationRequirement>'),
    inputs: { a: 1 },
    expect: { value: 20 },
  },
  // Contexts (section 10.3.2.3)
  {
    section: '10.3.2.3',
    title: 'a context without a result entry is a context',
    xml: input('a', 'number') + decision(`<context>${entry('x', literal('a + 1'))}${entry('y', literal('x * 2'))}</context>`, reads('a')),
    inputs: { a: 1 },
    expect: { value: { x: 2, y: 4 } },
  },
  {
    section: '10.3.2.3',
    title: 'a context with a final result entry is that result',
    xml: input('a', 'number') + decision(`<context>${entry('x', literal('a + 1'))}${entry(null, literal('x * 3'))}</context>`, reads('a')),
    inputs: { a: 1 },
    expect: { value: 6 },
  },
  {
    section: '10.3.2.3',
    title: 'a context entry typeRef is checked',
    xml: decision(`<context>${entry('x', literal('"no"'), 'number')}</context>`),
    inputs: {},
    expect: { error: /typeRef 'number'/, cell: "context, context entry 'x'" },
  },
  // Lists and relations (sections 10.3.2.6, 10.3.2.7)
  {
    section: '10.3.2.6',
    title: 'a list of literal expressions',
    xml: input('a', 'number') + decision(`<list>${literal('a')}${literal('a + 1')}${literal('"z"')}</list>`, reads('a')),
    inputs: { a: 1 },
    expect: { value: [1, 2, 'z'] },
  },
  {
    section: '10.3.2.7',
    title: 'a relation is a list of contexts by column',
    xml: decision(
      `<relation><column name="k"/><column name="v"/><row>${literal('"a"')}${literal('1')}</row><row>${literal('"b"')}${literal('2')}</row></relation>`,
    ),
    inputs: {},
    expect: {
      value: [
        { k: 'a', v: 1 },
        { k: 'b', v: 2 },
      ],
    },
  },
  // Business knowledge models and invocation (sections 10.3.2.4, 10.3.2.5)
  {
    section: '10.3.2.5',
    title: 'a boxed invocation binds parameters by name',
    xml:
      input('a', 'number') +
      bkm('twice', ['x'], literal('x * 2')) +
      decision(
        `<invocation><literalExpression><text>twice</text></literalExpression><binding><parameter name="x"/>${literal('a + 1')}</binding></invocation>`,
        reads('a') + knows('twice'),
      ),
    inputs: { a: 4 },
    expect: { value: 10 },
  },
  {
    section: '10.3.2.4',
    title: 'a BKM invoked from a literal expression',
    xml: input('a', 'number') + bkm('twice', ['x'], literal('x * 2')) + decision(literal('twice(a) + 1'), reads('a') + knows('twice')),
    inputs: { a: 4 },
    expect: { value: 9 },
  },
  {
    section: '10.3.2.4',
    title: 'a BKM whose body is a decision table',
    xml: input('a', 'number') + bkm('fee', ['amount'], feeTable) + decision(literal('fee(a)'), reads('a') + knows('fee')),
    inputs: { a: 200 },
    expect: { value: 20 },
  },
  {
    section: '10.3.2.4',
    title: 'a BKM calling another BKM it requires',
    xml:
      input('a', 'number') +
      bkm('inc', ['x'], literal('x + 1')) +
      bkm('incTwice', ['y'], literal('inc(inc(y))'), knows('inc')) +
      decision(literal('incTwice(a)'), reads('a') + knows('incTwice')),
    inputs: { a: 1 },
    expect: { value: 3 },
  },
  {
    section: '10.3.2.4',
    title: 'a decision table cell invoking a BKM',
    xml:
      input('a', 'number') +
      bkm('twice', ['x'], literal('x * 2')) +
      decision(
        `<decisionTable><input><inputExpression><text>a</text></inputExpression></input><output name="o"/><rule><inputEntry><text>-</text></inputEntry><outputEntry><text>twice(a)</text></outputEntry></rule></decisionTable>`,
        reads('a') + knows('twice'),
      ),
    inputs: { a: 3 },
    expect: { value: 6 },
  },
  {
    section: '10.3.2.4',
    title: 'an error inside a BKM names the decision and the BKM',
    xml: input('a', 'number') + bkm('bad', ['x'], literal('x + nope')) + decision(literal('bad(a)'), reads('a') + knows('bad')),
    inputs: { a: 1 },
    expect: { error: /variable|not found/i, cell: "business knowledge model 'bad'" },
  },
  {
    section: '10.3.2.5',
    title: 'invoking a BKM the decision does not require fails the load',
    xml:
      input('a', 'number') +
      bkm('twice', ['x'], literal('x * 2')) +
      decision(`<invocation><literalExpression><text>twice</text></literalExpression></invocation>`, reads('a')),
    inputs: {},
    expect: { compile: /invokes 'twice'/ },
  },
  // Function definitions (section 10.3.2.8)
  {
    section: '10.3.2.8',
    title: 'a function definition in a context, called by a later entry',
    xml:
      input('a', 'number') +
      decision(
        `<context><contextEntry><variable name="sq"/><functionDefinition><formalParameter name="n"/>${literal('n * n')}</functionDefinition></contextEntry>${entry(null, literal('sq(a) + sq(2)'))}</context>`,
        reads('a'),
      ),
    inputs: { a: 3 },
    expect: { value: 13 },
  },
  // Item definitions (section 7.3.2)
  {
    section: '7.3.2',
    title: 'an input inside its allowed values passes',
    xml:
      item('tAge', '<typeRef>number</typeRef><allowedValues><text>[0..150]</text></allowedValues>') +
      input('age', 'tAge') +
      decision(literal('age + 1'), reads('age')),
    inputs: { age: 30 },
    expect: { value: 31 },
  },
  {
    section: '7.3.2',
    title: 'an input outside its allowed values is null plus a problem',
    xml:
      item('tAge', '<typeRef>number</typeRef><allowedValues><text>[0..150]</text></allowedValues>') +
      input('age', 'tAge') +
      decision(literal('age = null'), reads('age')),
    inputs: { age: 200 },
    expect: { value: true, problem: /allowed values of 'tAge'/ },
  },
  {
    section: '7.3.2',
    title: 'a structure checks its components',
    xml:
      item('tPerson', item('name', '<typeRef>string</typeRef>') + item('age', '<typeRef>number</typeRef>')) +
      input('p', 'tPerson') +
      decision(literal('p.name + "!"'), reads('p')),
    inputs: { p: { name: 'Ann', age: 3 } },
    expect: { value: 'Ann!' },
  },
  {
    section: '7.3.2',
    title: 'a structure with a component of the wrong type is null plus a problem',
    xml:
      item('tPerson', item('name', '<typeRef>string</typeRef>') + item('age', '<typeRef>number</typeRef>')) +
      input('p', 'tPerson') +
      decision(literal('p = null'), reads('p')),
    inputs: { p: { name: 'Ann', age: 'old' } },
    expect: { value: true, problem: /component 'age'/ },
  },
  {
    section: '7.3.2',
    title: 'a collection checks each item',
    xml:
      item('tCodes', '<typeRef>string</typeRef><allowedValues><text>"A","B"</text></allowedValues>', ' isCollection="true"') +
      input('c', 'tCodes') +
      decision(literal('count(c)'), reads('c')),
    inputs: { c: ['A', 'B', 'A'] },
    expect: { value: 3 },
  },
  {
    section: '7.3.2',
    title: 'a collection with an item outside the allowed values is null plus a problem',
    xml:
      item('tCodes', '<typeRef>string</typeRef><allowedValues><text>"A","B"</text></allowedValues>', ' isCollection="true"') +
      input('c', 'tCodes') +
      decision(literal('c = null'), reads('c')),
    inputs: { c: ['A', 'Z'] },
    expect: { value: true, problem: /item 2/ },
  },
  {
    section: '7.3.2',
    title: 'a decision output outside its item definition is null plus a problem',
    xml:
      item('tScore', '<typeRef>number</typeRef><allowedValues><text>&lt;= 10</text></allowedValues>') +
      input('a', 'number') +
      decision(literal('a * 10'), reads('a'), 'tScore'),
    inputs: { a: 5 },
    expect: { value: null, problem: /allowed values of 'tScore'/ },
  },
  {
    section: '7.3.2',
    title: 'an unknown typeRef fails the load',
    xml: input('a', 'tMissing') + decision(literal('a'), reads('a')),
    inputs: {},
    expect: { compile: /unknown typeRef 'tMissing'/ },
  },
  // Decision services (section 10.4)
  {
    section: '10.4',
    title: 'a decision invokes a decision service with its input data as parameters',
    xml:
      input('x', 'number') +
      `<decision id="d_Inner" name="Inner"><variable name="Inner"/>${reads('x')}${literal('x * 100')}</decision>` +
      `<decisionService id="k_Svc" name="Svc"><variable name="Svc"/><outputDecision href="#d_Inner"/><inputData href="#i_x"/></decisionService>` +
      decision(literal('Svc(7)'), knows('Svc')),
    inputs: { x: 1 },
    expect: { value: 700 },
  },
];
