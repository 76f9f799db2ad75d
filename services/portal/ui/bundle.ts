import { copyFileSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const SOURCE = fileURLToPath(new URL('.', import.meta.url));

/** Bundles the browser code and styles with esbuild and copies the template, icon and catalogues to `outDir`. */
export async function bundleUi(outDir: string): Promise<void> {
  mkdirSync(join(outDir, 'i18n'), { recursive: true });
  await build({
    entryPoints: [
      { in: join(SOURCE, 'client/main.ts'), out: 'app' },
      { in: join(SOURCE, 'styles.css'), out: 'app' },
    ],
    bundle: true,
    minify: true,
    format: 'iife',
    // ES2020 runs in every captive-network window still in use (iOS 14+, Android System WebView).
    target: 'es2020',
    charset: 'utf8',
    outdir: outDir,
    logLevel: 'warning',
  });
  for (const file of ['index.html', 'icon.svg', 'i18n/en.json', 'i18n/vi.json']) copyFileSync(join(SOURCE, file), join(outDir, file));
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  await bundleUi(resolve(process.argv[2] ?? 'dist/ui'));
}
