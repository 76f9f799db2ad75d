// `npm run lint` (and `make test`): the import rules the build keeps, and the source rules read
// off the text (SOURCE_RULES) for what an import graph cannot see. The import graph
// comes from esbuild's metafile (esbuild already bundles the Keycloak extension and the portal UI),
// which resolves every import the way the bundles do. esbuild drops imports used only as types, so
// these rules govern what runs; a type-only import across a line is left to review.
// Why not dependency-cruiser or typescript-eslint's import rules: both read TypeScript through its
// JavaScript API, which TypeScript 7 (this project's compiler) no longer ships.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import * as contract from '../contract/index.js';
import { PROFILE_IDS } from '../edge/index.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PRODUCT = ['services', 'contract', 'edge', 'kc-extension', 'dmn'];
const NODE_BUILTIN = /^node:|^(fs|path|os|crypto|child_process|net|http|https|url|util|stream|events|zlib|dgram|worker_threads)$/;

export interface Rule {
  name: string;
  why: string;
  /** True when an import from `from` to `to` (repository-relative paths, or a bare package name) breaks the rule. */
  breaks(from: string, to: string): boolean;
}

const serviceOf = (path: string): string | undefined => /^services\/([^/]+)\//.exec(path)?.[1];

export const RULES: Rule[] = [
  {
    name: 'services-stay-apart',
    why: 'services talk over HTTP with the contract; none imports another (the kit and the contract are shared)',
    breaks: (from, to) => {
      const [a, b] = [serviceOf(from), serviceOf(to)];
      return a !== undefined && b !== undefined && a !== 'kit' && b !== 'kit' && a !== b;
    },
  },
  {
    name: 'kit-imports-no-service',
    why: 'the kit is what every service uses; it depends on none of them',
    breaks: (from, to) => serviceOf(from) === 'kit' && serviceOf(to) !== undefined && serviceOf(to) !== 'kit',
  },
  {
    name: 'contract-is-a-leaf',
    why: 'the wire contract is used everywhere, also inside Keycloak: it imports no product or tooling code',
    breaks: (from, to) => from.startsWith('contract/') && /^(services|edge|kc-extension|dmn|scripts|test|bench)\//.test(to),
  },
  {
    name: 'kit-imports-no-edge',
    why: 'the kit is what every service uses; controller knowledge lives in edge/, used by the services that meet controllers',
    breaks: (from, to) => serviceOf(from) === 'kit' && to.startsWith('edge/'),
  },
  {
    name: 'edge-imports-no-service',
    why: 'edge/ is used by the gateway and portal services and by tooling; it builds on the contract and the kit only',
    breaks: (from, to) =>
      from.startsWith('edge/') && (/^(kc-extension|dmn|scripts|test|bench)\//.test(to) || (serviceOf(to) !== undefined && serviceOf(to) !== 'kit')),
  },
  {
    name: 'keycloak-extension-imports-no-service',
    why: 'the extension runs in GraalJS inside Keycloak: it shares only the contract and the DMN engine',
    // A bundle.ts beside it is the Node build step of a bundle, not part of one.
    breaks: (from, to) =>
      from.startsWith('kc-extension/') && (/^(services|scripts|test|bench)\//.test(to) || (NODE_BUILTIN.test(to) && !from.endsWith('/bundle.ts'))),
  },
  {
    name: 'dmn-engine-is-pure',
    why: 'the DMN engine also runs in GraalJS: no Node built-ins, no service code',
    breaks: (from, to) => from.startsWith('dmn/engine/') && (/^(services|kc-extension|scripts|test|bench)\//.test(to) || NODE_BUILTIN.test(to)),
  },
  {
    name: 'product-imports-no-tooling',
    why: 'tests, scripts and benchmarks use product code, never the other way round',
    breaks: (from, to) => PRODUCT.some((top) => from.startsWith(`${top}/`)) && /^(test|scripts|bench)\//.test(to),
  },
];

/** Every import edge between files of the repository (and to bare packages), as esbuild resolves it. */
export async function importGraph(entryPoints: string[]): Promise<Map<string, string[]>> {
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints,
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    outdir: join(ROOT, '.cache', 'import-rules'),
    logLevel: 'silent',
  });
  const graph = new Map<string, string[]>();
  for (const [file, input] of Object.entries(result.metafile.inputs)) {
    graph.set(
      file,
      input.imports.map((edge) => edge.path),
    );
  }
  return graph;
}

/** The circles of the graph, each as the files in order (one listing per circle found). */
export function circles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string): void => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue;
      if (state.get(next) === 'open') found.push([...stack.slice(stack.indexOf(next)), next]);
      else if (state.get(next) === undefined) visit(next);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (state.get(file) === undefined) visit(file);
  return found;
}

/** The rule breaks of a graph, one line each. */
export function violations(graph: Map<string, string[]>, rules: readonly Rule[] = RULES): string[] {
  const lines: string[] = [];
  for (const [from, targets] of graph) {
    for (const to of targets) {
      for (const rule of rules) if (rule.breaks(from, to)) lines.push(`${rule.name}: ${from} imports ${to} (${rule.why})`);
    }
  }
  for (const circle of circles(graph)) lines.push(`no-circles: ${circle.join(' -> ')} (a circle makes load order matter and hides which module owns a rule)`);
  return lines;
}

/** A rule read off the source text, for what the import graph cannot see. */
export interface SourceRule {
  name: string;
  why: string;
  /** Whether the rule governs this repository-relative path. */
  applies(path: string): boolean;
  /** What in the text breaks the rule, one short quote each. */
  find(text: string): string[];
}

/** Every pattern the contract exports, as its literal, with its export names (NAS_ID_PATTERN and NAME_PATTERN share one). */
const CONTRACT_PATTERNS = new Map<string, string[]>();
for (const [name, value] of Object.entries(contract)) {
  if (value instanceof RegExp) CONTRACT_PATTERNS.set(`/${value.source}/`, [...(CONTRACT_PATTERNS.get(`/${value.source}/`) ?? []), name]);
}
const isProduct = (path: string) => /^(services|kc-extension)\//.test(path) && path.endsWith('.ts');
const lineOf = (text: string, index: number) => text.slice(0, index).split('\n').length;

export const SOURCE_RULES: SourceRule[] = [
  {
    name: 'sign-in-names-no-controller',
    why: 'the sign-in core asks the profile (edge/controllers) how a device is let through; a controller named there is a controller added in two places',
    applies: (path) => /^services\/portal\/sign-in[^/]*\.ts$/.test(path),
    find: (text) =>
      PROFILE_IDS.flatMap((id) => [...text.matchAll(new RegExp(`['"\`]${id}['"\`]`, 'g'))].map((match) => `line ${lineOf(text, match.index)}: ${match[0]}`)),
  },
  {
    name: 'no-redeclared-contract-pattern',
    why: 'a shape that crosses a boundary is written once in contract/ and imported, so the two sides cannot drift apart',
    applies: isProduct,
    find: (text) =>
      [...CONTRACT_PATTERNS].flatMap(([literal, names]) => {
        const at = text.indexOf(literal);
        return at < 0 ? [] : [`line ${lineOf(text, at)}: ${literal} is contract's ${names.join(' = ')}`];
      }),
  },
  {
    name: 'route-params-from-their-schema',
    why: "a route parameter is read typed from the route's params schema (or Express's typed path), never cast with String()",
    applies: isProduct,
    find: (text) => [...text.matchAll(/String\(req\.params/g)].map((match) => `line ${lineOf(text, match.index)}: ${match[0]}`),
  },
  {
    name: 'no-tracker-citations',
    why: 'the issue tracker is not in the repository: a comment says its reason itself or cites the spec section or the RFC',
    applies: (path) => /\.(ts|java|sh)$/.test(path),
    find: (text) => [...text.matchAll(/\b[Ii]ssues? #?[0-9]+|\(#[0-9]+\)/g)].map((match) => `line ${lineOf(text, match.index)}: ${match[0]}`),
  },
];

/** The source rule breaks of some files (repository-relative path to text), one line each. */
export function sourceViolations(files: Map<string, string>, rules: readonly SourceRule[] = SOURCE_RULES): string[] {
  const lines: string[] = [];
  for (const [path, text] of files) {
    for (const rule of rules) {
      if (!rule.applies(path)) continue;
      for (const quote of rule.find(text)) lines.push(`${rule.name}: ${path} ${quote} (${rule.why})`);
    }
  }
  return lines;
}

const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.cache', '.git', 'target']);

/** The repository's source files the source rules read (.ts, .java, .sh), outside build output and packages. */
export function sourceFiles(dir = ''): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const path = dir === '' ? entry.name : `${dir}/${entry.name}`;
    if (entry.isDirectory() && !SKIPPED_DIRS.has(entry.name)) for (const [file, text] of sourceFiles(path)) files.set(file, text);
    else if (entry.isFile() && /\.(ts|java|sh)$/.test(entry.name)) files.set(path, readFileSync(join(ROOT, path), 'utf8'));
  }
  return files;
}

function tsFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts'))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)))
    .filter((path) => !/(^|\/)(node_modules|dist)\//.test(path));
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const entries = [...PRODUCT, 'scripts', 'bench'].flatMap(tsFiles);
  const sources = sourceFiles();
  const found = [...violations(await importGraph(entries)), ...sourceViolations(sources)];
  for (const line of found) process.stdout.write(`${line}\n`);
  process.stdout.write(`import and source rules: ${entries.length} files imported, ${sources.size} read, ${found.length} violation(s)\n`);
  process.exit(found.length === 0 ? 0 : 1);
}
