/// <reference lib="dom" />
import type { DmnView } from 'dmn-js-shared/lib/base/EditingManager';
import { is } from 'dmn-js-shared/lib/util/ModelUtil';
import { api } from './api.js';
import { byId, guarded, say } from './dom.js';
import { TableModeler } from './table-modeler.js';

type Tab = 'table' | 'source';

let modeler: TableModeler | undefined;
let tab: Tab = 'table';
let dirty = false;

const modelSelect = (): HTMLSelectElement => byId<HTMLSelectElement>('dmn-model');
const viewSelect = (): HTMLSelectElement => byId<HTMLSelectElement>('dmn-view');
const source = (): HTMLTextAreaElement => byId<HTMLTextAreaElement>('dmn-xml');
const modelPath = (): string => `dmn/models/${encodeURIComponent(modelSelect().value)}`;

function setDirty(value: boolean): void {
  dirty = value;
  byId('dmn-state').textContent = value ? 'Unsaved changes.' : 'No unsaved changes.';
}

function theModeler(): TableModeler {
  if (modeler !== undefined) return modeler;
  const created = new TableModeler({ container: byId('dmn-editor') });
  created.on('views.changed', ({ views, activeView }) => showViews(views, activeView));
  created.on('viewer.created', ({ viewer }) => viewer.on('elements.changed', () => setDirty(true)));
  modeler = created;
  return created;
}

const label = (view: DmnView): string => view.name ?? view.id;

function showViews(views: DmnView[], active: DmnView | undefined): void {
  const select = viewSelect();
  select.replaceChildren(...views.map((view) => new Option(label(view), view.id)));
  if (active !== undefined) select.value = active.id;
  const decision = byId<HTMLSelectElement>('dmn-decision');
  const chosen = decision.value;
  decision.replaceChildren(new Option("(the model's default)", ''), ...views.map((view) => new Option(label(view), label(view))));
  decision.value = views.some((view) => label(view) === chosen) ? chosen : active === undefined ? '' : label(active);
}

/** dmn-js reports parse problems as exceptions with a message; say them in one line. */
const importProblem = (error: unknown): Error =>
  new Error(`DMN_IMPORT_ERROR: the document cannot be shown in the table editor: ${error instanceof Error ? error.message : String(error)}`);

/** Opens `xml` in the modeler, keeping the decision table that was open when it is still there. */
async function show(xml: string): Promise<void> {
  const target = theModeler();
  const previous = target.getActiveView()?.id;
  let warnings: unknown[];
  try {
    ({ warnings } = await target.importXML(xml));
  } catch (error) {
    throw importProblem(error);
  }
  const again = target.getViews().find((view) => view.id === previous);
  if (again !== undefined && again !== target.getActiveView()) await target.open(again);
  if (target.getViews().length === 0) throw new Error('DMN_NO_TABLE: this model has no decision table to edit; use the Source tab.');
  fillInputTemplate();
  setDirty(false);
  if (warnings.length > 0)
    say(`Opened with ${warnings.length} warning(s): ${warnings.map((w) => (w instanceof Error ? w.message : String(w))).join('; ')}`, 'error');
}

/** Adds every input of the model (as null) that the evaluate form's JSON does not name yet. */
function fillInputTemplate(): void {
  const names = (theModeler().getDefinitions()?.drgElement ?? [])
    .filter((element) => is(element, 'dmn:InputData'))
    .map((element) => (element as { name?: string }).name)
    .filter((name): name is string => name !== undefined);
  const field = byId<HTMLTextAreaElement>('dmn-inputs');
  let current: Record<string, unknown>;
  try {
    current = JSON.parse(field.value || '{}') as Record<string, unknown>;
  } catch {
    return;
  }
  const missing = names.filter((name) => !(name in current));
  if (missing.length > 0) field.value = JSON.stringify({ ...current, ...Object.fromEntries(missing.map((name) => [name, null])) }, null, 1);
}

async function currentXml(): Promise<string> {
  if (tab === 'source') return source().value;
  return (await theModeler().saveXML({ format: true })).xml;
}

async function switchTab(next: Tab): Promise<void> {
  if (next === tab) return;
  if (next === 'source') {
    source().value = await currentXml();
  } else {
    const wasDirty = dirty;
    await show(source().value);
    setDirty(wasDirty);
  }
  tab = next;
  for (const name of ['table', 'source'] as const) {
    const tabButton = byId(`dmn-tab-${name}`);
    tabButton.setAttribute('aria-selected', String(name === next));
    tabButton.tabIndex = name === next ? 0 : -1;
    byId(`dmn-panel-${name}`).hidden = name !== next;
  }
  byId(`dmn-tab-${next}`).focus();
}

async function openModel(): Promise<void> {
  const { xml } = await api<{ xml: string }>('GET', modelPath());
  source().value = xml;
  await show(xml);
}

export async function loadDmn(): Promise<void> {
  const { models } = await api<{ models: { name: string }[] }>('GET', 'dmn/models');
  const select = modelSelect();
  const chosen = select.value;
  select.replaceChildren(...models.map((model) => new Option(model.name, model.name)));
  if (models.some((model) => model.name === chosen)) select.value = chosen;
  if (models.length === 0) throw new Error('MODEL_NOT_FOUND: the models folder holds no decision model.');
  await openModel();
}

async function save(): Promise<void> {
  const xml = await currentXml();
  const reply = await api<{ file: string; reloadedAt: string }>('PUT', modelPath(), { xml });
  if (tab === 'source') await show(xml);
  setDirty(false);
  say(`Saved ${reply.file}; the decision service reloaded at ${reply.reloadedAt}.`, 'ok');
}

async function evaluate(): Promise<void> {
  let inputs: unknown;
  try {
    inputs = JSON.parse(byId<HTMLTextAreaElement>('dmn-inputs').value);
  } catch (error) {
    throw new Error(`INVALID_INPUTS: the inputs are not JSON (${error instanceof Error ? error.message : 'unreadable'}).`);
  }
  if (typeof inputs !== 'object' || inputs === null || Array.isArray(inputs))
    throw new Error('INVALID_INPUTS: the inputs must be one JSON object, e.g. {"userType": "EMPLOYEE"}.');
  const decision = byId<HTMLSelectElement>('dmn-decision').value;
  const reply = await api<{ results: unknown }>(
    'POST',
    `dmn/evaluate/${encodeURIComponent(modelSelect().value)}`,
    decision === '' ? { inputs } : { inputs, decision },
  );
  byId('dmn-result').textContent = JSON.stringify(reply.results, null, 2);
  say(`Evaluated ${decision === '' ? 'the model' : decision} as saved${dirty ? ' (your unsaved changes are not part of it)' : ''}.`, 'ok');
}

export function wireDmn(): void {
  modelSelect().addEventListener(
    'change',
    guarded(async () => {
      if (dirty && !confirm('Discard the unsaved changes of this model?')) return;
      await openModel();
    }),
  );
  viewSelect().addEventListener(
    'change',
    guarded(async () => {
      const view = theModeler()
        .getViews()
        .find((candidate) => candidate.id === viewSelect().value);
      if (view !== undefined) await theModeler().open(view);
    }),
  );
  byId('dmn-tab-table').addEventListener(
    'click',
    guarded(() => switchTab('table')),
  );
  byId('dmn-tab-source').addEventListener(
    'click',
    guarded(() => switchTab('source')),
  );
  // Arrow keys move between the two tabs (WAI-ARIA tabs pattern).
  byId('dmn-tabs').addEventListener(
    'keydown',
    guarded(async (event: KeyboardEvent) => {
      if (event.key === 'ArrowLeft' || event.key === 'ArrowRight') await switchTab(tab === 'table' ? 'source' : 'table');
    }),
  );
  byId('dmn-save').addEventListener('click', guarded(save));
  byId('dmn-revert').addEventListener(
    'click',
    guarded(async () => {
      await openModel();
      say('Changes discarded: the saved model is shown again.', 'ok');
    }),
  );
  byId('dmn-evaluate').addEventListener('click', guarded(evaluate));
}
