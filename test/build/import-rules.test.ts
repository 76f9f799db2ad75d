import test from 'ava';
import { circles, importGraph, sourceFiles, sourceViolations, violations } from '../../scripts/import-rules.js';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const graph = (edges: Record<string, string[]>) => new Map(Object.entries(edges));
const ruleNames = (edges: Record<string, string[]>) => violations(graph(edges)).map((line) => line.split(':')[0]);

test('the repository keeps its import rules (services apart, kit and contract below them, the Keycloak extension and DMN engine free of Node and services, no circles)', async (t) => {
  const files = ['services', 'contract', 'edge', 'kc-extension', 'dmn', 'scripts', 'bench'].flatMap((dir) =>
    readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts'))
      .map((entry) => relative(ROOT, join(entry.parentPath, entry.name))),
  );
  const found = violations(await importGraph(files));
  t.deepEqual(found, [], found.join('\n'));
});

test('each rule names an import that crosses its line, and lets the allowed ones through', (t) => {
  t.deepEqual(ruleNames({ 'services/portal/a.ts': ['services/session/b.ts'] }), ['services-stay-apart']);
  t.deepEqual(ruleNames({ 'services/portal/a.ts': ['services/kit/b.ts', 'services/portal/c.ts', 'contract/d.ts', 'express'] }), []);
  t.deepEqual(ruleNames({ 'services/kit/a.ts': ['services/gateway/b.ts'] }), ['kit-imports-no-service']);
  t.deepEqual(ruleNames({ 'contract/a.ts': ['services/kit/b.ts'] }), ['contract-is-a-leaf']);
  t.deepEqual(ruleNames({ 'kc-extension/host/a.ts': ['node:fs'] }), ['keycloak-extension-imports-no-service']);
  t.deepEqual(ruleNames({ 'kc-extension/svc-admin/gui/bundle.ts': ['node:fs'] }), [], "a bundle's Node build step");
  t.deepEqual(ruleNames({ 'dmn/engine/a.ts': ['crypto'] }), ['dmn-engine-is-pure']);
  t.deepEqual(ruleNames({ 'contract/a.ts': ['test/helpers/b.ts'] }), ['contract-is-a-leaf', 'product-imports-no-tooling']);
  t.deepEqual(ruleNames({ 'scripts/a.ts': ['services/portal/b.ts'] }), []);
  t.deepEqual(ruleNames({ 'services/kit/a.ts': ['edge/registry.ts'] }), ['kit-imports-no-edge']);
  t.deepEqual(ruleNames({ 'edge/registry.ts': ['services/portal/b.ts'] }), ['edge-imports-no-service']);
  t.deepEqual(ruleNames({ 'edge/registry.ts': ['services/kit/sealing.ts', 'contract/mac.ts', 'zod'] }), []);
  t.deepEqual(ruleNames({ 'contract/a.ts': ['edge/controllers/index.ts'] }), ['contract-is-a-leaf']);
  t.deepEqual(ruleNames({ 'services/portal/a.ts': ['edge/index.ts'] }), []);
});

test('a circle is found and named in order', (t) => {
  t.deepEqual(circles(graph({ a: ['b'], b: ['c'], c: ['a'], d: ['a'] })), [['a', 'b', 'c', 'a']]);
  t.deepEqual(circles(graph({ a: ['b'], b: [] })), []);
  t.deepEqual(ruleNames({ 'services/kit/a.ts': ['services/kit/b.ts'], 'services/kit/b.ts': ['services/kit/a.ts'] }), ['no-circles']);
});

const sourceRuleNames = (files: Record<string, string>) => sourceViolations(new Map(Object.entries(files))).map((line) => line.split(':')[0]);

test("the repository's source keeps its rules (no service re-declares a contract pattern, route parameters come typed, no comment cites the tracker)", (t) => {
  const found = sourceViolations(sourceFiles());
  t.deepEqual(found, [], found.join('\n'));
});

test('a contract pattern written again in a service or the Keycloak extension is found, its import is not', (t) => {
  t.deepEqual(sourceRuleNames({ 'services/gateway/a.ts': 'const NAS = /^[A-Za-z0-9_-]{1,64}$/;' }), ['no-redeclared-contract-pattern']);
  t.deepEqual(sourceRuleNames({ 'kc-extension/svc-admin/a.ts': "z.string().regex(/^[0-9]{9,12}$/, 'digits')" }), ['no-redeclared-contract-pattern']);
  t.deepEqual(sourceRuleNames({ 'services/gateway/a.ts': "import { NAS_ID_PATTERN } from '../../contract/ids.js';\nz.string().regex(NAS_ID_PATTERN);" }), []);
  t.deepEqual(sourceRuleNames({ 'contract/ids.ts': 'export const NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;' }), [], 'the contract itself declares them');
});

test('a route parameter cast with String() in a service is found; one read from the typed params is not', (t) => {
  t.deepEqual(sourceRuleNames({ 'services/portal/a.ts': "const nasId = String(req.params['nasId']);" }), ['route-params-from-their-schema']);
  t.deepEqual(sourceRuleNames({ 'services/portal/a.ts': 'const { nasId } = req.params;' }), []);
});

test('a comment citing a tracker number is found in TypeScript, Java and shell; the spec and RFCs may be cited', (t) => {
  // Built from parts so that this file does not cite the tracker itself.
  const cite = (n: string) => ['iss', 'ue ', n].join('');
  t.deepEqual(sourceRuleNames({ 'services/kit/a.ts': `// ${cite('27')} item 4: why` }), ['no-tracker-citations']);
  t.deepEqual(sourceRuleNames({ 'spi-wrapper/A.java': `/* as ${cite('12')} decided */` }), ['no-tracker-citations']);
  t.deepEqual(sourceRuleNames({ 'scripts/a.sh': `# fixed in (${'#'}31)` }), ['no-tracker-citations']);
  t.deepEqual(sourceRuleNames({ 'services/kit/a.ts': '// spec 4.4 rule 3; RFC 5176 section 3' }), []);
  t.deepEqual(sourceRuleNames({ 'docs/a.md': `${cite('12')}` }), [], 'prose is read by people, not by this rule');
});

test("the sign-in core names no controller: a profile id there is found, the profile's grant is not", (t) => {
  t.deepEqual(sourceRuleNames({ 'services/portal/sign-in.ts': "if (device.gateway.profile === 'opennds') queue();" }), ['sign-in-names-no-controller']);
  t.deepEqual(sourceRuleNames({ 'services/portal/sign-in-routes.ts': 'const chilli = "coovachilli";' }), ['sign-in-names-no-controller']);
  t.deepEqual(sourceRuleNames({ 'services/portal/sign-in.ts': "if (grantOf(device.gateway.profile) === 'queued') queue();" }), []);
  t.deepEqual(sourceRuleNames({ 'services/portal/opennds-arrival.ts': "profile: 'opennds'" }), [], 'an arrival of a controller of its own may name it');
});
