// The parts of dmn-js (no type declarations of its own) the GUI uses; names as in dmn-js-shared's Manager.

declare module 'dmn-js-shared/lib/base/EditingManager' {
  /** One editable element of the document: here, a decision whose logic is a decision table. */
  export interface DmnView {
    id: string;
    name: string | undefined;
    type: string;
    element: unknown;
  }
  export interface ViewProvider {
    id: string;
    constructor: new (options: Record<string, unknown>) => unknown;
    opens: string | ((element: unknown) => boolean);
  }
  export interface ManagerOptions {
    container?: HTMLElement;
    common?: Record<string, unknown>;
  }
  export default class EditingManager {
    constructor(options?: ManagerOptions);
    importXML(xml: string): Promise<{ warnings: unknown[] }>;
    saveXML(options?: { format?: boolean }): Promise<{ xml: string }>;
    getViews(): DmnView[];
    getActiveView(): DmnView | undefined;
    getDefinitions(): { drgElement?: unknown[] } | undefined;
    open(view: DmnView): Promise<{ warnings: unknown[] }>;
    on(event: 'views.changed', callback: (event: { views: DmnView[]; activeView: DmnView | undefined }) => void): void;
    on(event: 'viewer.created', callback: (event: { viewer: { on(event: string, callback: () => void): void } }) => void): void;
    on(event: string, callback: (event: unknown) => void): void;
    protected _getViewProviders(): ViewProvider[];
  }
}

declare module 'dmn-js-decision-table/lib/Editor' {
  const DecisionTableEditor: new (options: Record<string, unknown>) => unknown;
  export default DecisionTableEditor;
}

declare module 'dmn-js-shared/lib/util/ModelUtil' {
  export function is(element: unknown, type: string): boolean;
}
