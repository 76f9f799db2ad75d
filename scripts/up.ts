// `make up`: the whole platform on embedded defaults, until Ctrl-C.
import { startPlatform } from './platform.js';

// The demo HR service runs on loopback, which svc-admin's connector probe refuses unless allowed:
// `make up` allows loopback (a production Keycloak allows only what its operator names).
const platform = await startPlatform({
  keycloak: true,
  env: { TEST_HARNESS: process.env.TEST_HARNESS ?? 'true', SVC_ADMIN_PROBE_ALLOW: process.env.SVC_ADMIN_PROBE_ALLOW ?? '127.0.0.0/8, ::1/128' },
});
for (const { name, url, log } of platform.started) process.stdout.write(`${name.padEnd(12)} ${url.padEnd(24)} log: ${log}\n`);
process.stdout.write(`
Open the portal: http://localhost:3000/
Demo accounts (README "Demo accounts"):
  customer   bob@example.com / bob-demo-pass      (also alice@, carol@; register your own)
  employee   A-1001 / 079201001234 (MEMBER_A)     B-2001 / 079202003456 (MEMBER_B)
  refused    A-1002 / 079201002345 (inactive)     X-9001 / 079209006789 (PARTNER-X, not eligible)
Mail (Keycloak's verify-email mail after a registration): http://127.0.0.1:8025/
Text messages (one-time codes of the phone sign-in): http://127.0.0.1:8026/
Keycloak admin console: http://localhost:8080/admin/ (admin / admin)
Member companies (svc-admin GUI): http://localhost:8080/realms/wifi/svc-admin/ (svc-operator / operator-demo-pass)
${radiusBanner()}openNDS (OpenWrt's captive portal) enforcing for real in network namespaces, as root, with the
commands to see a client's network closed, opened and closed again (its FAS is still a stand-in):
    node --import tsx scripts/opennds-try.ts
Platform is up. Ctrl-C stops it.
`);
function radiusBanner(): string {
  const radius = platform.radius;
  if (radius === undefined) return '';
  return `RADIUS (FreeRADIUS -> gateway service): auth udp://${radius.address}:${radius.authPort}, accounting udp://${radius.address}:${radius.acctPort}
  demo NAS '${radius.demo.nasId}' (fixtures/gateways.json), shared secret: ${radius.demo.secret}
  try a gateway login (session -> grant -> one-time credential -> radclient Access-Request, Accounting Start):
    node --import tsx scripts/radius-try.ts
  or by hand, with a credential from POST http://127.0.0.1:3004/api/v1/credentials:
    echo 'User-Name = "<username>", User-Password = "<password>", Calling-Station-Id = "AA-BB-CC-DD-EE-FF", Message-Authenticator = 0x00' | radclient -x ${radius.address}:${radius.authPort} auth ${radius.demo.secret}
`;
}
const stop = async () => {
  await platform.stop();
  process.exit(0);
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
setInterval(() => undefined, 1 << 30);
