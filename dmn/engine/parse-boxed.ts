import type {
  ChildExpression,
  Conditional,
  Context,
  Filter,
  DecisionTable,
  FunctionDefinition,
  Invocation,
  ItemDefinition,
  Iterator,
  List,
  LiteralExpression,
  ModdleElement,
  Relation,
} from 'dmn-moddle';
import type { ParsedExpression, ParsedItemDefinition, ParsedTable } from './parsed-model.js';

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

/** The decision table of a decision's logic, when that is what it is. */
export function tableOf(element: ModdleElement | undefined): ParsedTable | null {
  return element?.$type === 'dmn:DecisionTable' ? readTable(element as DecisionTable) : null;
}

/** Reads any boxed expression of DMN 1.3 chapter 10 (and decision tables) into plain data. */
export function readExpression(element: ModdleElement | undefined): ParsedExpression | null {
  if (element === undefined) return null;
  const typeRef = (element as { typeRef?: string }).typeRef ?? null;
  switch (element.$type) {
    case 'dmn:LiteralExpression':
      return { kind: 'literal', text: (element as LiteralExpression).text ?? '', typeRef };
    case 'dmn:DecisionTable':
      return { kind: 'table', table: readTable(element as DecisionTable), typeRef };
    case 'dmn:Context':
      return {
        kind: 'context',
        typeRef,
        entries: ((element as Context).contextEntry ?? []).map((entry) => ({
          name: entry.variable?.name ?? null,
          typeRef: entry.variable?.typeRef ?? null,
          value: readExpression(entry.value),
        })),
      };
    case 'dmn:List':
      return {
        kind: 'list',
        typeRef,
        items: ((element as List).elements ?? []).map((item) => readExpression(item) ?? { kind: 'literal', text: 'null', typeRef: null }),
      };
    case 'dmn:Relation': {
      const relation = element as Relation;
      return {
        kind: 'relation',
        typeRef,
        columns: (relation.column ?? []).map((column) => column.name ?? ''),
        rows: (relation.row ?? []).map((row) => (row.elements ?? []).map((cell) => readExpression(cell) ?? { kind: 'literal', text: 'null', typeRef: null })),
      };
    }
    case 'dmn:Invocation': {
      const invocation = element as Invocation;
      return {
        kind: 'invocation',
        typeRef,
        callee: invocation.calledFunction?.text?.trim() ?? '',
        bindings: (invocation.binding ?? []).map((binding) => ({ name: binding.parameter?.name ?? '', value: readExpression(binding.bindingFormula) })),
      };
    }
    case 'dmn:FunctionDefinition': {
      const definition = element as FunctionDefinition;
      return {
        kind: 'function',
        typeRef,
        functionKind: definition.kind ?? 'FEEL',
        parameters: (definition.formalParameter ?? []).map((p) => ({ name: p.name ?? '', typeRef: p.typeRef ?? null })),
        body: readExpression(definition.body),
      };
    }
    case 'boxed15:Conditional': {
      const conditional = element as Conditional;
      return { kind: 'conditional', typeRef, if: childOf(conditional.if), then: childOf(conditional.then), else: childOf(conditional.else) };
    }
    case 'boxed15:For':
    case 'boxed15:Some':
    case 'boxed15:Every': {
      const iterator = element as Iterator;
      const which = element.$type === 'boxed15:For' ? 'for' : element.$type === 'boxed15:Some' ? 'some' : 'every';
      return {
        kind: 'iterator',
        iterator: which,
        typeRef,
        variable: iterator.iteratorVariable ?? '',
        in: childOf(iterator.in),
        body: childOf(which === 'for' ? iterator.return : iterator.satisfies),
      };
    }
    case 'boxed15:Filter': {
      const filter = element as Filter;
      return { kind: 'filter', typeRef, in: childOf(filter.in), match: childOf(filter.match) };
    }
    default:
      return { kind: 'unsupported', type: element.$type, typeRef: null };
  }
}

// DMN 1.5 tChildExpression: one boxed expression inside `if`, `in`, `return`, ...
const childOf = (child: ChildExpression | undefined) => readExpression(child?.value);

export function readItemDefinition(item: ItemDefinition): ParsedItemDefinition {
  return {
    name: item.name ?? null,
    typeRef: item.typeRef ?? null,
    allowedValues: item.allowedValues?.text ?? null,
    isCollection: item.isCollection === true,
    components: (item.itemComponent ?? []).map(readItemDefinition),
  };
}
