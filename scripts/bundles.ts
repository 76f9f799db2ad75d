// The esbuild bundles that run outside Node, with their options written once: the extension
// Keycloak loads into GraalJS (`npm run bundle:kc`, run by `scripts/kc.sh build`), and the DMN
// engine on its own as the same neutral build (its bundle test and bench:dmn). The portal's
// browser bundle and svc-admin's GUI bundle target browsers and live with their pages
// (services/portal/ui/bundle.ts, kc-extension/svc-admin/gui/bundle.ts).
import { build, type BuildOptions } from 'esbuild';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Only ECMAScript globals exist where these run (GraalJS inside Keycloak): no Node, no DOM. */
const NEUTRAL: BuildOptions = { bundle: true, platform: 'neutral', target: 'es2022', logLevel: 'warning' };

export const KC_EXTENSION_BUNDLE = '.cache/kc-bundle/wifi-extension.js';

const KC_EXTENSION: BuildOptions = {
  ...NEUTRAL,
  entryPoints: [join(ROOT, 'kc-extension/main.ts')],
  format: 'iife',
  globalName: 'WifiExtension',
  outfile: join(ROOT, KC_EXTENSION_BUNDLE),
};

/** The DMN engine alone, built as the extension builds it: an IIFE with global `DmnEngine`, or an ES module. */
export async function dmnEngineBundle(format: 'iife' | 'esm'): Promise<string> {
  const result = await build({
    ...NEUTRAL,
    entryPoints: [join(ROOT, 'dmn/engine/index.ts')],
    format,
    ...(format === 'iife' ? { globalName: 'DmnEngine' } : {}),
    write: false,
    logLevel: 'silent',
  });
  if (result.errors.length > 0) throw new Error(`the DMN engine does not bundle: ${result.errors.map((e) => e.text).join('; ')}`);
  return result.outputFiles[0]?.text ?? '';
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const which = process.argv[2];
  if (which !== 'kc') {
    process.stderr.write('usage: node --import tsx scripts/bundles.ts kc\n');
    process.exit(2);
  }
  await build(KC_EXTENSION);
}
