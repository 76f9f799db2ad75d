import { writeFileSync } from 'node:fs';
import test, { type ExecutionContext } from 'ava';
import { createSealer, gatewayForArrival, loadGatewayRegistry, type GatewaysFileEntry } from '../../../services/kit/index.js';
import { tempDir } from '../gateway/platform.js';

// Issue 27: one registry, read by the portal and the gateway service, decides where a device
// logs in: a gateway is found by its NAS id or its login URL, and only its registered login URL counts.
const sealer = createSealer('ZGV2LWdhdGV3YXktc2VhbC1rZXktMzItYnl0ZXMhISE=');
const entry = (nasId: string, loginUrls: string[], extra: Partial<GatewaysFileEntry> = {}): GatewaysFileEntry => ({ nasId, profile: 'coovachilli', address: '127.0.0.1', secret: sealer.seal('s'), loginUrls, ...extra });

function registryFile(t: ExecutionContext, gateways: unknown[]): string {
  const file = `${tempDir(t, 'wifi-registry-')}/gateways.json`;
  writeFileSync(file, JSON.stringify({ gateways }));
  return file;
}

test('a gateway is found by its NAS id with its registered login URL, or by the login URL alone; the registry\'s URL is answered', (t) => {
  const registry = loadGatewayRegistry(registryFile(t, [entry('venue-1', ['http://10.1.0.1:3990/logon']), entry('venue-2', ['HTTP://10.2.0.1:3990/logon'], { uamSecret: sealer.seal('u') })]), sealer);
  t.like(gatewayForArrival(registry, 'coovachilli', 'venue-1', 'http://10.1.0.1:3990/logon'), { kind: 'found', loginUrl: 'http://10.1.0.1:3990/logon', gateway: { nasId: 'venue-1', secret: 's', uamSecret: undefined } });
  t.like(gatewayForArrival(registry, 'coovachilli', null, 'http://10.2.0.1:3990/logon'), { kind: 'found', gateway: { nasId: 'venue-2', uamSecret: 'u' } });
});

test('an unregistered NAS id, another gateway\'s login URL or an attacker\'s login URL is not found', (t) => {
  const registry = loadGatewayRegistry(registryFile(t, [entry('venue-1', ['http://10.1.0.1:3990/logon']), entry('venue-2', ['http://10.2.0.1:3990/logon'])]), sealer);
  t.deepEqual(gatewayForArrival(registry, 'coovachilli', 'venue-9', 'http://10.1.0.1:3990/logon'), { kind: 'unknown-gateway' });
  t.deepEqual(gatewayForArrival(registry, 'coovachilli', 'venue-1', 'http://10.2.0.1:3990/logon'), { kind: 'unregistered-login-url' });
  t.deepEqual(gatewayForArrival(registry, 'coovachilli', 'venue-1', 'http://203.0.113.66:3990/logon'), { kind: 'unregistered-login-url' });
  t.deepEqual(gatewayForArrival(registry, 'coovachilli', null, 'http://203.0.113.66:3990/logon'), { kind: 'unknown-gateway' });
  t.deepEqual(gatewayForArrival(registry, 'coovachilli', 'venue-1', null), { kind: 'unregistered-login-url' });
});

test('a registry with a NAS id twice, a login URL at two gateways, an unknown profile or no login URL stops the start', (t) => {
  t.throws(() => loadGatewayRegistry(registryFile(t, [entry('a', ['http://10.1.0.1/logon']), entry('a', ['http://10.1.0.2/logon'])]), sealer), { message: /nasId a twice/ });
  t.throws(() => loadGatewayRegistry(registryFile(t, [entry('a', ['http://10.1.0.1/logon']), entry('b', ['http://10.1.0.1:80/logon'])]), sealer), { message: /registered twice/ });
  t.throws(() => loadGatewayRegistry(registryFile(t, [{ ...entry('a', ['http://10.1.0.1/logon']), profile: 'netgear' }]), sealer));
  t.throws(() => loadGatewayRegistry(registryFile(t, [entry('a', [])]), sealer));
  t.throws(() => loadGatewayRegistry(registryFile(t, [entry('a', ['javascript:alert(1)'])]), sealer));
});

test('the shipped fixtures/gateways.json loads under the development seal key', (t) => {
  const registry = loadGatewayRegistry('fixtures/gateways.json', sealer);
  t.like(registry.get('demo-nas'), { profile: 'coovachilli', loginUrls: ['http://10.1.0.1:3990/logon'] });
});

test('an OPNsense zone takes the password itself: the registry holds its logon URL only as https', (t) => {
  const opn = (url: string) => entry('opn-1', [url], { profile: 'opnsense' });
  t.throws(() => loadGatewayRegistry(registryFile(t, [opn('http://cp.example.net:8000/api/captiveportal/access/logon/')]), sealer), { message: /opn-1 \(opnsense\) takes the password itself: its login URLs must be https/ });
  const registry = loadGatewayRegistry(registryFile(t, [opn('https://cp.example.net:8000/api/captiveportal/access/logon/')]), sealer);
  t.like(gatewayForArrival(registry, 'opnsense', null, 'https://cp.example.net:8000/api/captiveportal/access/logon/'), { kind: 'found', gateway: { nasId: 'opn-1' } });
  t.deepEqual(gatewayForArrival(registry, 'opnsense', null, 'http://cp.example.net:8000/api/captiveportal/access/logon/'), { kind: 'unknown-gateway' });
});
