/**
 * Orders decisions so each comes after the decisions it requires (DMN 1.3 section 6.3.2
 * information requirements). Returns the cycle, as names, when there is no such order.
 */
export function dependencyOrder(requires: ReadonlyMap<string, readonly string[]>): { order: string[] } | { cycle: string[] } {
  const order: string[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const path: string[] = [];

  const visit = (name: string): string[] | null => {
    const seen = state.get(name);
    if (seen === 'done') return null;
    if (seen === 'visiting') return [...path.slice(path.indexOf(name)), name];
    state.set(name, 'visiting');
    path.push(name);
    for (const required of requires.get(name) ?? []) {
      const cycle = visit(required);
      if (cycle !== null) return cycle;
    }
    path.pop();
    state.set(name, 'done');
    order.push(name);
    return null;
  };

  for (const name of requires.keys()) {
    const cycle = visit(name);
    if (cycle !== null) return { cycle };
  }
  return { order };
}

/** The decision and every decision it requires, transitively; `stopAt` ends the walk (a decision service's input decisions). */
export function requiredClosure(
  name: string,
  requires: ReadonlyMap<string, readonly string[]>,
  into = new Set<string>(),
  stopAt: ReadonlySet<string> = new Set(),
): Set<string> {
  if (into.has(name) || stopAt.has(name)) return into;
  into.add(name);
  for (const required of requires.get(name) ?? []) requiredClosure(required, requires, into, stopAt);
  return into;
}
