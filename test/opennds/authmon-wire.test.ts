import { execFileSync } from 'node:child_process';
import test from 'ava';
import { ackedRhids, authList, parseDeauthNotice, REVOCATIONS_REQUEST, revocationList, revokedRhids, type AuthmonGrant } from '../../contract/controllers/opennds-authmon.js';

const RHID = 'a'.repeat(64);
const GRANT: AuthmonGrant = { rhid: RHID, sessionMinutes: 60, uploadKbitPerSecond: 2000, downloadKbitPerSecond: 10000, uploadQuotaKB: 0, downloadQuotaKB: 500000, custom: 'c2Vzcy0x' };

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

test('a deauthentication notice parses without the MAC; an unknown method or token is refused', (t) => {
  const payload = 'method=downquota_deauth, clientmac=02:6e:64:73:00:11, bytes_incoming=1048576, bytes_outgoing=2048, session_start=1764100000, session_end=1764101800, token=0a1b2c3d, custom=bmRzdA==';
  t.deepEqual(parseDeauthNotice(payload), { method: 'downquota_deauth', token: '0a1b2c3d', bytesIncoming: 1048576, bytesOutgoing: 2048, sessionStart: 1764100000, sessionEnd: 1764101800 });
  t.is(parseDeauthNotice(payload.replace('downquota_deauth', 'client_auth')), undefined);
  t.is(parseDeauthNotice(payload.replace('token=0a1b2c3d', 'token=xyz')), undefined);
  t.is(parseDeauthNotice(payload.replace('bytes_incoming=1048576', 'bytes_incoming=-1')), undefined);
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
