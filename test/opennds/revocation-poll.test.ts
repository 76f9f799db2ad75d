import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import { stopChild } from '../../scripts/child-process.js';
import { waitFor } from '../../scripts/opennds/command.js';

// router/revocation-poll.sh reports an rhid to the FAS as revoked only when ndsctl says the client
// is ended ("deauthenticated") or unknown ("not found"). ndsctl run while another ndsctl (authmon's)
// holds its lock fails with "Unable to create lock": the rhid must stay listed and be tried again,
// or the client stays online with the platform believing it cut off. openNDS's library and ndsctl
// are stood in by scripts in a temporary folder (LIBOPENNDS, PATH): no root needed.
const SCRIPT = fileURLToPath(new URL('../../edge/router/revocation-poll.sh', import.meta.url));
const SIGNING_POST_REQUEST = fileURLToPath(new URL('../../edge/router/post-request.php', import.meta.url));
const BUSY = 'a'.repeat(64);
const GONE = 'b'.repeat(64);

test('an rhid is reported revoked only after ndsctl deauthenticated it or did not know it; a busy ndsctl (its lock held) is tried again at the next poll', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ndst-revpoll-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const log = join(dir, 'log');
  // The FAS lists the rhids until they are reported (a real FAS stops listing reported ones).
  writeFileSync(
    join(dir, 'lib.sh'),
    `#!/bin/sh
if [ "$2" = "revocations" ]; then
  list='*'
  for rhid in ${BUSY} ${GONE}; do grep -q "^fas: revoked.*$rhid" "${log}" 2>/dev/null || list="$list $rhid"; done
  printf '%s not-an-rhid' "$list"
else
  echo "fas: $2" >> "${log}"; printf 'ack'
fi
`,
  );
  // ndsctl: the first deauth of BUSY finds its lock taken; GONE is unknown to openNDS.
  writeFileSync(
    join(dir, 'ndsctl'),
    `#!/bin/sh
echo "ndsctl: $*" >> "${log}"
case "$2" in
  ${BUSY}) if [ -e "${dir}/busy-once" ]; then echo "Client $2 deauthenticated."; else touch "${dir}/busy-once"; echo "CRITICAL ERROR - Unable to create lock on [/tmp/ndsctl.lock]"; exit 1; fi ;;
  *) echo "Client $2 not found."; exit 1 ;;
esac
`,
  );
  chmodSync(join(dir, 'lib.sh'), 0o755);
  chmodSync(join(dir, 'ndsctl'), 0o755);
  const poller = spawn('/bin/sh', [SCRIPT, '1'], {
    env: { ...process.env, PATH: `${dir}:${process.env['PATH'] ?? ''}`, LIBOPENNDS: join(dir, 'lib.sh'), POST_REQUEST: SIGNING_POST_REQUEST },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  t.teardown(() => stopChild(poller));
  const reports = () =>
    existsSync(log)
      ? readFileSync(log, 'utf8')
          .split('\n')
          .filter((line) => line.startsWith('fas: revoked'))
      : [];
  await waitFor('the busy rhid reported', async () => (reports().some((line) => line.includes(BUSY)) ? true : undefined), 10_000, 50);
  const lines = readFileSync(log, 'utf8').split('\n');
  t.deepEqual(
    reports(),
    [`fas: revoked ${GONE}`, `fas: revoked ${BUSY}`],
    'not-found at once; the busy one only at the next poll, once ndsctl deauthenticated it',
  );
  t.is(lines.filter((line) => line === `ndsctl: deauth ${BUSY}`).length, 2, 'the busy deauth was tried again');
  t.false(
    lines.some((line) => line.includes('not-an-rhid')),
    'only 64 hex digits reach ndsctl',
  );
});

test('it does not start unless openNDS sends through the signing post-request.php: the FAS would refuse its unsigned requests, and a guest could answer them', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ndst-revpoll-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const sent = join(dir, 'sent');
  writeFileSync(join(dir, 'lib.sh'), `#!/bin/sh\necho "$2" >> "${sent}"; printf '*'\n`);
  chmodSync(join(dir, 'lib.sh'), 0o755);
  writeFileSync(join(dir, 'post-request.php'), "<?php # openNDS's own: sends auth_get, gatewayhash and payload only\n");
  const poller = spawn('/bin/sh', [SCRIPT, '1'], {
    env: { ...process.env, LIBOPENNDS: join(dir, 'lib.sh'), POST_REQUEST: join(dir, 'post-request.php') },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  t.teardown(() => stopChild(poller));
  let stderr = '';
  poller.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // Either it exits, or (the rule broken) it polls: whichever comes first.
  const exited = new Promise<number | null>((resolve) => poller.on('exit', resolve));
  const polled = waitFor('a poll sent', async () => (existsSync(sent) ? 'polled' : undefined), 10_000, 50).catch(() => 'neither');
  const outcome = await Promise.race([exited, polled]);
  t.false(existsSync(sent), 'nothing was sent');
  t.is(outcome, 2);
  t.regex(stderr, /not the signing post-request\.php/);
});

/** `ndsctl json` as openNDS 9.10 prints it (src/util.c ndsctl_json_all): one field a line, counters in KiB. */
function ndsctlJson(clients: ReadonlyArray<{ mac: string; token: string; state: string; down: number; up: number }>): string {
  const entries = clients.map(
    (c) => `    "${c.mac}":{
      "gatewayname":"demo-opennds",
      "version":"9.10.0",
      "mac":"${c.mac}",
      "ip":"192.168.77.${(Number.parseInt(c.token.slice(0, 2), 16) % 200) + 2}",
      "token":"${c.token}",
      "state":"${c.state}",
      "custom":"b64custom",
      "download_quota":"null",
      "upload_quota":"null",
      "download_this_session":"${c.down}",
      "download_session_avg":"1.25",
      "upload_this_session":"${c.up}",
      "upload_session_avg":"0.50"
    }`,
  );
  return `{\n  "client_list_length":"${clients.length}",\n  "clients":{\n${entries.join(',\n')}\n  }\n}\n`;
}

test('asked for usage ("usage" in the poll\'s answer), it reports each authenticated client\'s token and KiB counters from ndsctl json, 500 clients a request, and no MAC or IP', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ndst-revpoll-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const log = join(dir, 'log');
  const clients = [
    { mac: '02:00:00:00:00:01', token: '0a0b0c0d', state: 'Authenticated', down: 1536, up: 12 },
    { mac: '02:00:00:00:00:02', token: '1a1b1c1d', state: 'Preauthenticated', down: 0, up: 0 },
    ...Array.from({ length: 500 }, (_, i) => ({ mac: '02:00:00:00:01:01', token: (0x20000000 + i).toString(16), state: 'Authenticated', down: i, up: 1 })),
  ];
  writeFileSync(join(dir, 'clients.json'), ndsctlJson(clients));
  // The FAS asks for usage at the first poll only.
  writeFileSync(
    join(dir, 'lib.sh'),
    `#!/bin/sh
if [ "$2" = "revocations" ]; then
  if [ -e "${dir}/asked" ]; then printf '*'; else touch "${dir}/asked"; printf '* usage'; fi
else
  echo "fas: $2" >> "${log}"; printf 'ack'
fi
`,
  );
  writeFileSync(join(dir, 'ndsctl'), `#!/bin/sh\n[ "$1" = "json" ] && cat "${dir}/clients.json"\n`);
  chmodSync(join(dir, 'lib.sh'), 0o755);
  chmodSync(join(dir, 'ndsctl'), 0o755);
  const poller = spawn('/bin/sh', [SCRIPT, '1'], {
    env: { ...process.env, PATH: `${dir}:${process.env['PATH'] ?? ''}`, LIBOPENNDS: join(dir, 'lib.sh'), POST_REQUEST: SIGNING_POST_REQUEST },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  t.teardown(() => stopChild(poller));
  const reports = () =>
    existsSync(log)
      ? readFileSync(log, 'utf8')
          .split('\n')
          .filter((line) => line.startsWith('fas: usage'))
      : [];
  await waitFor('both batches reported', async () => (reports().length >= 2 ? true : undefined), 10_000, 50);
  const [first = '', second = ''] = reports();
  const words = first.split(' ').slice(2);
  t.is(words.length, 500 * 3, 'the first request carries 500 clients');
  t.deepEqual(words.slice(0, 6), ['0a0b0c0d', '1536', '12', '20000000', '0', '1'], 'token, download KiB, upload KiB; the preauthenticated one left out');
  t.is(second, `fas: usage ${(0x20000000 + 499).toString(16)} 499 1`, 'the rest in a second request');
  t.false(/02:00:00|192\.168/.test(readFileSync(log, 'utf8')), 'no MAC or IP leaves the router');
});
