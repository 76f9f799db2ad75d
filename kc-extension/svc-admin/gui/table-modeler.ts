/// <reference lib="dom" />
import EditingManager, { type ViewProvider } from 'dmn-js-shared/lib/base/EditingManager';
import DecisionTableEditor from 'dmn-js-decision-table/lib/Editor';
import { is } from 'dmn-js-shared/lib/util/ModelUtil';

/**
 * dmn-js's editing manager with the decision-table view only: every decision whose logic is a
 * table is one view (`getViews()` / `open(view)`). Leaving out the DRD, literal-expression and
 * boxed-expression views keeps diagram rendering out of the served bundle.
 */
export class TableModeler extends EditingManager {
  protected override _getViewProviders(): ViewProvider[] {
    return [
      {
        id: 'decisionTable',
        constructor: DecisionTableEditor,
        opens: (element: unknown) => is(element, 'dmn:Decision') && is((element as { decisionLogic?: unknown }).decisionLogic, 'dmn:DecisionTable'),
      },
    ];
  }
}
