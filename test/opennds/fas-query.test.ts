import { readFileSync } from 'node:fs';
import test from 'ava';
import { authUrl, fasBase64, parseFasFields, parseLevel1Fas } from '../../edge/controllers/opennds.js';
import { decryptFasQuery, rhidOf } from '../../edge/opennds-crypto.js';

// Vectors made by PHP's openssl functions the way openNDS 9.10 calls them (regenerate with
// `php -f test/opennds/fixtures/php-openssl-vectors.php`); the live daemon's own redirect is
// decrypted in enforcement.test.ts.
interface Vector {
  faskey: string;
  iv: string;
  fas: string;
  plain: string;
  hid: string;
  rhid: string;
  level1Fas: string;
}
const { vectors } = JSON.parse(readFileSync(new URL('fixtures/fas-vectors.php-openssl.json', import.meta.url), 'utf8')) as { vectors: Vector[] };

test('levels 2/3: each PHP-encrypted query decrypts into its fields (short, 32-byte and over-long faskey)', (t) => {
  t.is(vectors.length, 3);
  for (const vector of vectors) {
    const query = decryptFasQuery(vector.fas, vector.iv, vector.faskey);
    t.truthy(query, vector.faskey);
    t.is(query?.hid, vector.hid);
    t.is(query?.clientip, '192.168.77.11');
    t.is(query?.gatewayname, 'venue-7 lobby');
    t.is(query?.gatewayaddress, '192.168.77.1:2050');
    t.is(query?.originurl, 'http://203.0.113.10/hello');
    t.is(query?.clientif, 'br-lan');
    t.is(query?.authdir, 'opennds_auth');
    t.is(query?.themespec, undefined, '"(null)" is no value');
    t.deepEqual(query?.custom, {});
  }
});

test('levels 1/2: rhid is sha256 of hid and faskey, as the PHP example FAS computes it', (t) => {
  for (const vector of vectors) t.is(rhidOf(vector.hid, vector.faskey), vector.rhid);
});

test('a wrong faskey, a changed ciphertext or iv, or a malformed iv decrypt to nothing', (t) => {
  const [vector] = vectors;
  if (vector === undefined) return t.fail();
  t.is(decryptFasQuery(vector.fas, vector.iv, 'another-key'), undefined);
  t.is(
    decryptFasQuery(
      vector.fas,
      vector.iv.replace(/^./, (c) => (c === '0' ? '1' : '0')),
      vector.faskey,
    ),
    undefined,
    'first block changed: hid no longer hex',
  );
  const inner = Buffer.from(vector.fas, 'base64').toString('latin1');
  const flipped = Buffer.from(inner, 'base64');
  const at = flipped.length - 20;
  flipped.writeUInt8(flipped.readUInt8(at) ^ 0x01, at);
  t.is(decryptFasQuery(Buffer.from(flipped.toString('base64')).toString('base64'), vector.iv, vector.faskey), undefined);
  t.is(decryptFasQuery(vector.fas, 'not-an-iv', vector.faskey), undefined);
  t.is(decryptFasQuery('%%%', vector.iv, vector.faskey), undefined);
});

test('a fas value whose + became a space in form decoding still decodes', (t) => {
  const [vector] = vectors;
  if (vector === undefined) return t.fail();
  const spaced = vector.fas.replace(/\+/g, ' ');
  t.is(fasBase64(spaced), vector.fas);
  t.is(decryptFasQuery(spaced, vector.iv, vector.faskey)?.hid, vector.hid);
});

test('level 1: the base64 query parses into the same fields', (t) => {
  for (const vector of vectors) t.is(parseLevel1Fas(vector.level1Fas)?.clientip, '192.168.77.11');
  t.is(parseLevel1Fas('bm90IGEgcXVlcnk='), undefined, '"not a query"');
});

test('a query without hid, with a bad clientip, or with a field twice is refused', (t) => {
  const [vector] = vectors;
  if (vector === undefined) return t.fail();
  t.truthy(parseFasFields(vector.plain));
  t.is(parseFasFields(vector.plain.replace(/^hid=[0-9a-f]+, /, '')), undefined);
  t.is(parseFasFields(vector.plain.replace('clientip=192.168.77.11', 'clientip=192.168.77.300')), undefined);
  t.is(parseFasFields(`${vector.plain}, clientip=192.168.77.12`), undefined);
  t.is(parseFasFields(vector.plain.replace('gatewayname=venue-7%20lobby', 'gatewayname=%E0%A4%A')), undefined);
});

test('custom parameters after the known fields are kept, decoded', (t) => {
  const [vector] = vectors;
  if (vector === undefined) return t.fail();
  t.deepEqual(parseFasFields(`${vector.plain}, venue=lobby%207`)?.custom, { venue: 'lobby 7' });
});

test('the auth URL of levels 1/2 goes to the gateway authdir with tok and redir', (t) => {
  t.is(
    authUrl({ gatewayaddress: '192.168.77.1:2050', authdir: 'opennds_auth' }, 'ab', 'http://x/?a=1'),
    'http://192.168.77.1:2050/opennds_auth/?tok=ab&redir=http%3A%2F%2Fx%2F%3Fa%3D1',
  );
});
