// What the cluster's portals need to serve Wi-Fi profiles, without starting the cluster: the
// RADIUS CA file in every portal's settings, and the fixture's Wi-Fi identifiers kept in the
// gateways file it writes (the failover test downloads a profile through the running cluster).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { DEFAULT_PORTS, ROOT } from '../../scripts/cluster.js';
import { makeSecrets } from '../../scripts/cluster/secrets.js';
import { serviceEnv, writeGatewaysFile } from '../../scripts/cluster/services.js';
import { createSealer } from '../../services/kit/index.js';
import { GatewaysFile, loadGatewayRegistry } from '../../edge/index.js';

const dir = mkdtempSync(join(tmpdir(), 'wifi-cluster-wifi-'));
test.after.always(() => rmSync(dir, { recursive: true, force: true }));

test("the cluster's portals read the cluster's RADIUS CA, and its gateways file keeps the fixture's Wi-Fi identifiers", (t) => {
  const secrets = makeSecrets({});
  const gatewaysFile = join(dir, 'gateways.json');
  const ctx = {
    root: ROOT,
    dir,
    ports: DEFAULT_PORTS,
    secrets,
    databaseUrl: 'postgres://unused',
    dmnDir: dir,
    gatewaysFile,
    radiusCaFile: join(dir, 'ca.pem'),
  };
  t.is(serviceEnv('portal', ctx)['RADIUS_EAP_CA_FILE'], ctx.radiusCaFile);
  writeGatewaysFile(ROOT, gatewaysFile, secrets.GATEWAY_SEAL_KEY);
  const fixture = GatewaysFile.parse(JSON.parse(readFileSync(join(ROOT, 'fixtures', 'gateways.json'), 'utf8')));
  const written = GatewaysFile.parse(JSON.parse(readFileSync(gatewaysFile, 'utf8')));
  t.not(fixture.wifi, undefined);
  t.deepEqual(written.wifi, fixture.wifi);
  t.deepEqual(written.venues, fixture.venues);
  // Sealed under the run's key: the registry opens it, and the demo NAS carries its venue's SSID.
  const registry = loadGatewayRegistry(gatewaysFile, createSealer(secrets.GATEWAY_SEAL_KEY));
  t.is(registry.get('demo-nas')?.wifi?.ssid, fixture.venues['demo-nas']?.ssid);
});
