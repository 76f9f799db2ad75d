import test from 'ava';
import type { ControllerProfile } from '../../../edge/controllers/index.js';

/** A change to a captured arrival: a parameter set to a value, or removed (undefined). */
export type Change = Readonly<Record<string, string | undefined>>;

/**
 * One test per bad value: the captured arrival with `change` applied is refused by the profile,
 * naming the parameter (never its value).
 */
export function refusesNaming(
  label: string,
  profile: ControllerProfile,
  captured: Record<string, string>,
  cases: readonly (readonly [string, Change, string])[],
): void {
  for (const [what, change, named] of cases) {
    test(`${label} ${what} is refused, naming ${named}`, (t) => {
      const query: Record<string, string> = { ...captured };
      for (const [key, value] of Object.entries(change)) {
        if (value === undefined) delete query[key];
        else query[key] = value;
      }
      t.deepEqual(profile.arrival.read(query), { ok: false, problems: [named] });
    });
  }
}
