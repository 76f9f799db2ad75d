import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { compileModels, describeProblem, parseModel, type CompiledModel, type ParsedModel } from './engine/index.js';

export interface LoadedModel {
  readonly model: CompiledModel;
  /** The file it came from, relative to DMN_DIR. */
  readonly file: string;
}

/** Every model of the directory, compiled; replaced as a whole, never edited. */
export interface Runtime {
  readonly models: ReadonlyMap<string, LoadedModel>;
  readonly loadedAt: string;
}

export type LoadOutcome = { readonly ok: true; readonly runtime: Runtime } | { readonly ok: false; readonly message: string };

const failed = (message: string): LoadOutcome => ({ ok: false, message });

// The error code only (ENOENT, EACCES): the message would carry an absolute path.
const ioCode = (error: unknown) => (error instanceof Error && 'code' in error ? String(error.code) : 'error');

/**
 * Reads and compiles every `.dmn` file of the directory into a new runtime. All or nothing
 * (spec 4.5): one file that does not compile fails the load, naming the file and the problem,
 * and an empty directory is a failure too, so an empty table is never served.
 */
export async function loadDirectory(dir: string): Promise<LoadOutcome> {
  let files: string[];
  try {
    files = (await readdir(dir)).filter((file) => file.endsWith('.dmn')).sort();
  } catch (error) {
    return failed(`DMN_DIR cannot be read (${ioCode(error)})`);
  }
  if (files.length === 0) return failed('DMN_DIR holds no .dmn file');

  const parsed: ParsedModel[] = [];
  for (const file of files) {
    let xml: string;
    try {
      xml = await readFile(join(dir, file), 'utf8');
    } catch (error) {
      return failed(`${file}: cannot be read (${ioCode(error)})`);
    }
    const outcome = await parseModel(xml);
    if (!outcome.ok) return failed(`${file}: ${describeProblem(outcome.error)}`);
    parsed.push(outcome.value);
  }

  // Models of the folder may import each other (DMN 1.3 section 6.3.3).
  const models = new Map<string, LoadedModel>();
  for (const [i, outcome] of compileModels(parsed).entries()) {
    const file = files[i] as string;
    if (!outcome.ok) return failed(`${file}: ${describeProblem(outcome.error)}`);
    const { name } = outcome.value;
    const existing = models.get(name);
    if (existing !== undefined) return failed(`${file}: model '${name}' is already defined in ${existing.file}`);
    models.set(name, { model: outcome.value, file });
  }
  return { ok: true, runtime: { models, loadedAt: new Date().toISOString() } };
}
