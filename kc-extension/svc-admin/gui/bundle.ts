import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import type { AssetManifest } from '../assets.js';
import { DMN_JS_INLINE_STYLES } from './inline-styles.js';

const SOURCE = fileURLToPath(new URL('.', import.meta.url));
/** Where scripts/kc.sh builds the GUI; spi-wrapper packs this folder into its jar as `svc-admin-assets/`. */
export const GUI_OUT_DIR = '.cache/kc-gui';

/**
 * Bundles the svc-admin GUI (its script, the dmn-js decision-table modeler, their CSS and the
 * dmn icon font) into content-hashed files, and writes `manifest.json` naming them: the module
 * serves only the names listed there.
 */
export async function bundleGui(outDir: string): Promise<AssetManifest> {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const result = await build({
    entryPoints: [
      { in: join(SOURCE, 'main.ts'), out: 'gui' },
      { in: join(SOURCE, 'styles.css'), out: 'gui' },
    ],
    bundle: true,
    minify: true,
    format: 'iife',
    target: 'es2020',
    charset: 'utf8',
    entryNames: '[name]-[hash]',
    assetNames: '[name]-[hash]',
    loader: { '.woff2': 'file', '.woff': 'file', '.ttf': 'file', '.eot': 'file', '.svg': 'file' },
    define: { 'process.env.NODE_ENV': '"production"' },
    legalComments: 'eof',
    metafile: true,
    outdir: outDir,
    logLevel: 'warning',
  });
  const files = Object.keys(result.metafile.outputs)
    .map((path) => basename(path))
    .sort();
  const script = files.find((file) => /^gui-.+\.js$/.test(file));
  const style = files.find((file) => /^gui-.+\.css$/.test(file));
  if (script === undefined || style === undefined) throw new Error('the GUI bundle has no script or no style sheet');
  const styleHashes = DMN_JS_INLINE_STYLES.map((value) => `sha256-${createHash('sha256').update(value, 'utf8').digest('base64')}`);
  const manifest: AssetManifest = { script, style, files, styleHashes };
  writeFileSync(join(outDir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  await bundleGui(resolve(process.argv[2] ?? GUI_OUT_DIR));
}
