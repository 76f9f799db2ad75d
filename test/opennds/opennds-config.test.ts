import test from 'ava';
import { dnsmasqLeases, openndsConfig } from '../../scripts/opennds/opennds-config.js';

const FAS = { remoteIp: '203.0.113.10', port: 443, path: '/opennds/fas', secureLevel: 3 as const, key: 'k3y' };

test('a FAS turns the login option off, since openNDS lets an enabled one override the FAS', (t) => {
  t.regex(openndsConfig({ interface: 'br-lan', gatewayName: 'g' }), /^login_option_enabled 1$/m);
  const withFas = openndsConfig({ interface: 'br-lan', gatewayName: 'g', fas: FAS });
  t.regex(withFas, /^login_option_enabled 0$/m);
  for (const line of [
    'fasremoteip 203.0.113.10',
    'fasport 443',
    'faspath /opennds/fas',
    'fas_secure_enabled 3',
    'faskey k3y',
    'enable_serial_number_suffix 0',
  ]) {
    t.true(withFas.split('\n').includes(line), line);
  }
});

test("authmon's poll interval is a comment line, which openNDS's parser skips", (t) => {
  t.regex(openndsConfig({ interface: 'br-lan', gatewayName: 'g', fas: FAS, authmonPollSeconds: 2 }), /^# nat_traversal_poll_interval 2$/m);
});

test('a value with white space or # is refused: the file has no quoting', (t) => {
  t.throws(() => openndsConfig({ interface: 'br-lan', gatewayName: 'a b' }), { message: /GatewayName/ });
  t.throws(() => openndsConfig({ interface: 'br-lan', gatewayName: 'g', fas: { ...FAS, key: 'k#1' } }), { message: /faskey/ });
  t.throws(() => openndsConfig({ interface: 'br-lan\nfaskey x', gatewayName: 'g' }), { message: /GatewayInterface/ });
});

test('leases are dnsmasq lines: expiry, MAC, address, host name, client id', (t) => {
  t.is(dnsmasqLeases([{ ip: '192.168.77.11', mac: '02:00:00:00:00:01' }], 1700000000), '1700000000 02:00:00:00:00:01 192.168.77.11 client1 *\n');
});
