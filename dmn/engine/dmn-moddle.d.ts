// dmn-moddle ships no types. These cover only what parse.ts reads of its DMN 1.3 meta-model;
// collections are absent (not empty) when the XML has none of them.
declare module 'dmn-moddle' {
  export interface ModdleElement {
    readonly $type: string;
    readonly id?: string;
    readonly name?: string;
    readonly label?: string;
  }
  export interface ElementReference {
    readonly href?: string;
  }
  export interface InformationItem extends ModdleElement {
    readonly typeRef?: string;
  }
  export interface LiteralExpression extends ModdleElement {
    readonly text?: string;
    readonly typeRef?: string;
  }
  export interface UnaryTests extends ModdleElement {
    readonly text?: string;
  }
  export interface InputClause extends ModdleElement {
    readonly inputExpression?: LiteralExpression;
    readonly inputValues?: UnaryTests;
  }
  export interface OutputClause extends ModdleElement {
    readonly typeRef?: string;
    readonly outputValues?: UnaryTests;
    readonly defaultOutputEntry?: LiteralExpression;
  }
  export interface DecisionRule extends ModdleElement {
    readonly inputEntry?: readonly UnaryTests[];
    readonly outputEntry?: readonly LiteralExpression[];
  }
  export interface DecisionTable extends ModdleElement {
    readonly hitPolicy: string;
    readonly aggregation?: string;
    readonly input?: readonly InputClause[];
    readonly output?: readonly OutputClause[];
    readonly rule?: readonly DecisionRule[];
  }
  export interface InformationRequirement extends ModdleElement {
    readonly requiredDecision?: ElementReference;
    readonly requiredInput?: ElementReference;
  }
  export interface KnowledgeRequirement extends ModdleElement {
    readonly requiredKnowledge?: ElementReference;
  }
  export interface Decision extends ModdleElement {
    readonly variable?: InformationItem;
    readonly informationRequirement?: readonly InformationRequirement[];
    readonly knowledgeRequirement?: readonly KnowledgeRequirement[];
    readonly decisionLogic?: ModdleElement;
  }
  export interface ContextEntry extends ModdleElement {
    readonly variable?: InformationItem;
    readonly value?: ModdleElement;
  }
  export interface Context extends ModdleElement {
    readonly typeRef?: string;
    readonly contextEntry?: readonly ContextEntry[];
  }
  export interface List extends ModdleElement {
    readonly typeRef?: string;
    readonly elements?: readonly ModdleElement[];
  }
  export interface Relation extends ModdleElement {
    readonly typeRef?: string;
    readonly column?: readonly InformationItem[];
    readonly row?: readonly List[];
  }
  export interface Binding {
    readonly parameter?: InformationItem;
    readonly bindingFormula?: ModdleElement;
  }
  export interface Invocation extends ModdleElement {
    readonly typeRef?: string;
    readonly calledFunction?: LiteralExpression;
    readonly binding?: readonly Binding[];
  }
  export interface FunctionDefinition extends ModdleElement {
    readonly typeRef?: string;
    readonly formalParameter?: readonly InformationItem[];
    readonly body?: ModdleElement;
    readonly kind?: string;
  }
  export interface BusinessKnowledgeModel extends ModdleElement {
    readonly variable?: InformationItem;
    readonly encapsulatedLogic?: FunctionDefinition;
    readonly knowledgeRequirement?: readonly KnowledgeRequirement[];
  }
  export interface DecisionService extends ModdleElement {
    readonly variable?: InformationItem;
    readonly outputDecision?: readonly ElementReference[];
    readonly encapsulatedDecision?: readonly ElementReference[];
    readonly inputDecision?: readonly ElementReference[];
    readonly inputData?: readonly ElementReference[];
  }
  export interface ItemDefinition extends ModdleElement {
    readonly typeRef?: string;
    readonly allowedValues?: UnaryTests;
    readonly itemComponent?: readonly ItemDefinition[];
    readonly isCollection?: boolean;
  }
  export interface InputData extends ModdleElement {
    readonly variable?: InformationItem;
  }
  export interface Import extends ModdleElement {
    readonly namespace?: string;
    readonly importType?: string;
  }
  export interface Definitions extends ModdleElement {
    readonly namespace?: string;
    readonly import?: readonly Import[];
    readonly drgElement?: readonly ModdleElement[];
    readonly itemDefinition?: readonly ItemDefinition[];
  }
  /** The DMN 1.5 boxed expressions of `newer-boxed.ts` (our moddle package). */
  export interface ChildExpression extends ModdleElement {
    readonly value?: ModdleElement;
  }
  export interface Conditional extends ModdleElement {
    readonly if?: ChildExpression;
    readonly then?: ChildExpression;
    readonly else?: ChildExpression;
  }
  export interface Iterator extends ModdleElement {
    readonly iteratorVariable?: string;
    readonly in?: ChildExpression;
    readonly return?: ChildExpression;
    readonly satisfies?: ChildExpression;
  }
  export interface Filter extends ModdleElement {
    readonly in?: ChildExpression;
    readonly match?: ChildExpression;
  }
  export interface FromXmlResult {
    readonly rootElement: ModdleElement;
    readonly warnings: readonly { readonly message: string }[];
  }
  export class DmnModdle {
    constructor(packages?: Record<string, unknown>);
    fromXML(xml: string, typeName?: string): Promise<FromXmlResult>;
  }
}
