import test from 'ava';
import { fileURLToPath } from 'node:url';
import { createSealer } from '../../services/kit/index.js';
import { loadGatewayRegistry } from '../../edge/index.js';
import { GatewayConfig } from '../../services/gateway/config.js';
import { COOVA_GATEWAYS } from '../../scripts/coova/gateways.js';
import { RELEASES, settingsFor } from '../../scripts/coova/harness.js';

// The real-chilli venue test (test/e2e/coova/venue.test.ts) runs chilli as scripts/coova/gateways.ts
// says and the started platform knows it by fixtures/gateways.json: the two must agree, or the
// platform refuses the gateway's RADIUS (secret), its arrivals (UAM secret, login URL), sends its
// Disconnects where no relay listens (coaPort), or turns a returning device's MAC authentication
// away (macAuthentication). Checked here in milliseconds, without chilli or the platform.
const registry = loadGatewayRegistry(
  fileURLToPath(new URL('../../fixtures/gateways.json', import.meta.url)),
  createSealer(GatewayConfig.parse({}).GATEWAY_SEAL_KEY),
);

for (const release of RELEASES) {
  test(`the registry's ${COOVA_GATEWAYS[release].nasId} is the CoovaChilli ${release} the venue test runs`, (t) => {
    const gateway = COOVA_GATEWAYS[release];
    const entry = registry.get(gateway.nasId);
    if (entry === undefined) return t.fail(`${gateway.nasId} is not in fixtures/gateways.json`);
    const settings = settingsFor({ ...gateway, portal: 'http://localhost:3000' }, '/unused');
    t.like(entry, {
      profile: 'coovachilli',
      address: gateway.nasIp,
      secret: gateway.radiusSecret,
      uamSecret: gateway.uamSecret,
      coaPort: gateway.coaPort,
      macAuthentication: gateway.macAuth,
    });
    t.deepEqual(entry.loginUrls, [`http://${settings.uamListen}:${settings.uamPort}/logon`]);
    t.true(settings.macAuth, 'chilli runs macauth where the registry accepts it');
  });
}
