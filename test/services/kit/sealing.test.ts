import test from 'ava';
import { randomBytes } from 'node:crypto';
import { createSealer } from '../../../services/kit/index.js';

const sealer = createSealer(randomBytes(32).toString('base64'));

test('a sealed value opens to its plain text', (t) => {
  t.is(sealer.open(sealer.seal('secret token')), 'secret token');
});

test('a sealed value whose tag is cut short is refused (GCM tag length is 16 bytes)', (t) => {
  const [version, iv, tag, body] = sealer.seal('secret token').split('.');
  // Node accepts 4..16-byte GCM tags unless told the length: a 4-byte tag is 2^32 forgeries away.
  for (const length of [4, 8, 12, 15]) {
    const short = Buffer.from(tag!, 'base64url').subarray(0, length).toString('base64url');
    t.throws(() => sealer.open([version, iv, short, body].join('.')), undefined, `${length}-byte tag`);
  }
});

test('a sealed value with a changed ciphertext is refused', (t) => {
  const [version, iv, tag, body] = sealer.seal('secret token').split('.');
  const changed = Buffer.from(body!, 'base64url');
  changed[0] = changed[0]! ^ 1;
  t.throws(() => sealer.open([version, iv, tag, changed.toString('base64url')].join('.')));
});
