import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { KC_EXTENSION_BUNDLE } from '../../scripts/bundles.js';

/** Where `npm run bundle:kc` (run by `scripts/kc.sh build`) writes the bundle spi-wrapper packs into its jar. */
export const SHIPPED_BUNDLE = KC_EXTENSION_BUNDLE;
/** The jar `scripts/kc.sh build` installs into Keycloak, and the bundle's path inside it. */
export const SHIPPED_JAR = '.cache/spi-wrapper/target/wifi-kc-extension.jar';
export const BUNDLE_IN_JAR = 'kc-extension/wifi-extension.js';

const SOURCES = ['kc-extension', 'contract'];

function newestSource(dir: string): number {
  if (!existsSync(dir)) return 0;
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/**
 * The shipped bundle's text. When it is missing or older than its sources it is rebuilt with
 * the very script `scripts/kc.sh build` runs (`npm run bundle:kc`), never with options of the
 * test's own, so what is tested is what Keycloak loads.
 */
export function shippedBundle(): string {
  const stale = !existsSync(SHIPPED_BUNDLE) || statSync(SHIPPED_BUNDLE).mtimeMs < Math.max(...SOURCES.map(newestSource));
  if (stale) execFileSync('npm', ['run', '--silent', 'bundle:kc'], { stdio: 'inherit' });
  return readFileSync(SHIPPED_BUNDLE, 'utf8');
}

/**
 * The bundle inside the built jar. A jar missing, or older than the bundle, would put another
 * bundle into Keycloak than the one tested: that fails, naming the command that builds it.
 */
export function bundleInJar(): string {
  if (!existsSync(SHIPPED_JAR)) throw new Error(`${SHIPPED_JAR} is missing: run scripts/kc.sh build`);
  if (statSync(SHIPPED_JAR).mtimeMs < statSync(SHIPPED_BUNDLE).mtimeMs)
    throw new Error(`${SHIPPED_JAR} is older than ${SHIPPED_BUNDLE}: run scripts/kc.sh build`);
  return execFileSync('unzip', ['-p', SHIPPED_JAR, BUNDLE_IN_JAR], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}
