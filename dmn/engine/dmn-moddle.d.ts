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
  export interface Decision extends ModdleElement {
    readonly variable?: InformationItem;
    readonly informationRequirement?: readonly InformationRequirement[];
    readonly decisionLogic?: ModdleElement;
  }
  export interface InputData extends ModdleElement {
    readonly variable?: InformationItem;
  }
  export interface Definitions extends ModdleElement {
    readonly drgElement?: readonly ModdleElement[];
  }
  export interface FromXmlResult {
    readonly rootElement: ModdleElement;
    readonly warnings: readonly { readonly message: string }[];
  }
  export class DmnModdle {
    fromXML(xml: string, typeName?: string): Promise<FromXmlResult>;
  }
}
