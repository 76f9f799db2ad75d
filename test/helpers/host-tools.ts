// The programs a test file runs besides Node are checked once, when the file loads: a missing one
// fails the file at once, naming the program and the install step that brings it, instead of a
// wait running into its timeout far from the cause.
import { existsSync } from 'node:fs';

/** The listed absolute paths that do not exist here. */
export function missingTools(paths: readonly string[]): string[] {
  return paths.filter((path) => !existsSync(path));
}

/** Throws, naming what is missing and `installedBy`, unless every path exists. */
export function requireTools(paths: readonly string[], installedBy: string): void {
  const missing = missingTools(paths);
  if (missing.length > 0) throw new Error(`this test runs ${missing.join(', ')}, missing here: ${installedBy}`);
}
