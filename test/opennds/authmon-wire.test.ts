import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import test from 'ava';
import {
  ackedRhids,
  authList,
  parseDeauthNotice,
  REVOCATIONS_REQUEST,
  revocationList,
  revokedRhids,
  type AuthmonGrant,
} from '../../edge/controllers/opennds-authmon.js';

const RHID = 'a'.repeat(64);
const GRANT: AuthmonGrant = {
  rhid: RHID,
  sessionMinutes: 60,
  uploadKbitPerSecond: 2000,
  downloadKbitPerSecond: 10000,
  uploadQuotaKB: 0,
  downloadQuotaKB: 500000,
  custom: 'c2Vzcy0x',
};

test('the auth list is "*" and each grant percent-encoded, which authmon\'s printf turns back into ndsctl\'s arguments', (t) => {
  const list = authList([GRANT, { ...GRANT, rhid: 'b'.repeat(64) }]);
  t.true(list.startsWith('* '));
  const [, first] = list.split(' ');
  // authmon.sh decodes each entry with bash: printf "${entry//%/\\x}"
  const decoded = execFileSync('bash', ['-c', 'printf "${1//%/\\\\x}"', 'bash', first ?? ''], { encoding: 'utf8' });
  t.is(decoded, `${RHID} 60 2000 10000 0 500000 c2Vzcy0x`);
  t.is(authList([]), '*');
});

test('a grant with a bad rhid, a negative or fractional limit, or a custom value authmon would split is refused', (t) => {
  t.throws(() => authList([{ ...GRANT, rhid: 'xyz' }]));
  t.throws(() => authList([{ ...GRANT, downloadQuotaKB: -1 }]));
  t.throws(() => authList([{ ...GRANT, sessionMinutes: 1.5 }]));
  t.throws(() => authList([{ ...GRANT, custom: 'a b' }]));
  t.throws(() => authList([{ ...GRANT, custom: 'a,b' }]));
});

test('an ack payload lists the authorised rhids; anything else is no ack', (t) => {
  t.deepEqual(ackedRhids(`* ${RHID} ${'b'.repeat(64)}`), [RHID, 'b'.repeat(64)]);
  t.deepEqual(ackedRhids('*'), []);
  t.is(ackedRhids('none'), undefined);
  t.is(ackedRhids('* not-an-rhid'), undefined);
});

// binauth_log.sh's notice as the real openNDS sent it (scripts/opennds/record-captures.ts).
const RECORDED = JSON.parse(readFileSync(new URL('../edge/controllers/captures/opennds.json', import.meta.url), 'utf8')) as { authmon: { body: string }[] };
const recordedNotice = (): string => {
  const form = RECORDED.authmon.map((post) => new URLSearchParams(post.body)).find((f) => f.get('auth_get') === 'deauthed');
  if (form === undefined) throw new Error('captures/opennds.json holds no deauthed notice');
  return Buffer.from(form.get('payload') ?? '', 'base64').toString('utf8');
};

test('a deauthentication notice as openNDS sends it parses without the MAC; an unknown method or token is refused', (t) => {
  const payload = recordedNotice();
  const field = (name: string) => new RegExp(`(?:^|, )${name}=([^,]*)`).exec(payload)?.[1] ?? '';
  t.deepEqual(parseDeauthNotice(payload), {
    method: 'ndsctl_deauth',
    token: field('token'),
    bytesIncoming: Number(field('bytes_incoming')),
    bytesOutgoing: Number(field('bytes_outgoing')),
    sessionStart: Number(field('session_start')),
    sessionEnd: Number(field('session_end')),
  });
  t.false(JSON.stringify(parseDeauthNotice(payload)).includes(field('clientmac')), 'the MAC is dropped');
  t.like(parseDeauthNotice(payload.replace('ndsctl_deauth', 'downquota_deauth')), { method: 'downquota_deauth' });
  t.is(parseDeauthNotice(payload.replace('ndsctl_deauth', 'client_auth')), undefined);
  t.is(parseDeauthNotice(payload.replace(`token=${field('token')}`, 'token=xyz')), undefined);
  t.is(parseDeauthNotice(payload.replace(/bytes_incoming=\d+/, 'bytes_incoming=-1')), undefined);
});

test('the revocation channel: "*" and the rhids to end; a "revoked" report names the ended ones', (t) => {
  t.is(revocationList([RHID]), `* ${RHID}`);
  t.is(revocationList([]), '*');
  t.throws(() => revocationList(['; reboot']));
  t.deepEqual(revokedRhids(`revoked ${RHID}`), [RHID]);
  t.is(revokedRhids('revoked'), undefined);
  t.is(revokedRhids(`revoked ${RHID} x`), undefined);
  t.is(revokedRhids(REVOCATIONS_REQUEST), undefined);
});
