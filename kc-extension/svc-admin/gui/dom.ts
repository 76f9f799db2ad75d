/// <reference lib="dom" />

export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (element === null) throw new Error(`the page has no #${id}`);
  return element as T;
}

/** The page's one alert region: every outcome and every failure is said there. */
export function say(text: string, kind: 'ok' | 'error'): void {
  const message = byId('message');
  message.textContent = text;
  message.className = kind;
  message.hidden = false;
}

type Cell = string | number | boolean | null | undefined | Node;

export function fillTable(table: HTMLTableElement, heads: string[], rows: Cell[][]): void {
  const head = document.createElement('tr');
  for (const text of heads) {
    const th = document.createElement('th');
    th.scope = 'col';
    th.textContent = text;
    head.append(th);
  }
  table.replaceChildren(
    head,
    ...rows.map((cells) => {
      const row = document.createElement('tr');
      for (const value of cells) {
        const td = document.createElement('td');
        if (value instanceof Node) td.append(value);
        else td.textContent = value === undefined || value === null ? '' : String(value);
        row.append(td);
      }
      return row;
    }),
  );
}

export function button(text: string, onClick: () => void): HTMLButtonElement {
  const element = document.createElement('button');
  element.type = 'button';
  element.textContent = text;
  element.addEventListener('click', onClick);
  return element;
}

/** Runs an action and shows its failure in the alert region instead of throwing. */
export const guarded =
  <A extends unknown[]>(action: (...args: A) => Promise<void> | void) =>
  async (...args: A): Promise<void> => {
    try {
      await action(...args);
    } catch (error) {
      say(error instanceof Error ? error.message : String(error), 'error');
    }
  };
