import { readFileSync } from 'node:fs';
import test from 'ava';
import { SETTINGS } from '../../kc-extension/employee-auth/settings.js';
import { authenticatorSettings } from '../../kc-extension/main.js';
import { HR_CONFIG } from './fake-host.js';

// Item 3 of the quality issue: settings.ts is the one source; every other place is checked here.
const names = SETTINGS.map((s) => s.name);

test('the bundle hands the Java factory every setting of settings.ts, with its label, help, default and secrecy', (t) => {
  // The factory builds its admin-console properties from this answer (EmployeeAuthenticatorFactoryTest).
  const handed = JSON.parse(authenticatorSettings()) as unknown[];
  t.deepEqual(
    handed,
    SETTINGS.map((s) => ({ name: s.name, label: s.label, help: s.help, ...('default' in s ? { default: s.default } : {}), secret: s.kind === 'secret' })),
  );
});

test('the realm import configures exactly these settings, integers at their defaults', (t) => {
  const realm = JSON.parse(readFileSync('realm-export.json', 'utf8')) as { authenticatorConfig: Array<{ alias: string; config: Record<string, string> }> };
  const config = realm.authenticatorConfig.find((c) => c.alias === 'employee-hr')?.config ?? {};
  t.deepEqual(Object.keys(config).sort(), [...names].sort());
  for (const setting of SETTINGS) if (setting.kind === 'int') t.is(config[setting.name], setting.default, setting.name);
  t.is(config['hrUrl'], `\${HR_URL:${SETTINGS[0].default}}`);
});

test('the fake host configures exactly these settings', (t) => {
  t.deepEqual(Object.keys(HR_CONFIG).sort(), [...names].sort());
});
