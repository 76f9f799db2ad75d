import { readFileSync } from 'node:fs';
import test from 'ava';
import { HS_OPTIONS, hsSettings } from '../../../scripts/coova/chilli-config.js';
import { COOVA_GATEWAYS } from '../../../scripts/coova/gateways.js';
import { settingsFor } from '../../../scripts/coova/harness.js';
import { PortalConfig } from '../../../services/portal/config.js';

// The operator guide's CoovaChilli configuration (docs/operate/gateways.md) is what the real-chilli test runs (test/e2e/coova/):
// each HS_* line, comments aside, equals the test's setting for the coova-19 gateway with the
// portal at its default public URL; each names a chilli option conf/functions.in knows.
const README = readFileSync(new URL('../../../docs/operate/gateways.md', import.meta.url), 'utf8');
const block = /```sh\n# \/etc\/chilli\/config[^\n]*\n([\s\S]*?)```/.exec(README)?.[1] ?? '';

test("the operator guide's chilli configuration is the one the real-chilli harness runs", (t) => {
  const written = Object.fromEntries(
    block
      .split('\n')
      .map((line) => line.replace(/#.*$/, '').trim())
      .filter((line) => line !== '')
      .map((line) => line.split('=', 2) as [string, string]),
  );
  const portal = PortalConfig.parse({}).PORTAL_PUBLIC_URL;
  t.deepEqual(written, hsSettings(settingsFor({ ...COOVA_GATEWAYS['1.9'], portal }, '/unused')));
  for (const name of Object.keys(written)) t.true(name in HS_OPTIONS, `${name} is a setting chilli's init scripts read`);
  t.regex(block, /HS_UAMHOMEPAGE=/, 'the homepage form is named');
  t.regex(block, /HS_MACAUTH=/, 'MAC authentication is named');
});
