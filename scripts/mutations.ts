// `npm run test:mutations`: breaks rules of the spec on purpose, one at a time, and checks that
// the unit tests guarding each rule fail (quality issue, item 1: "break each rule once and see a
// test fail"). Each mutation replaces one exact piece of source, runs the named test files, and
// puts the source back whatever happens. A mutation whose tests still pass is a test that cannot
// fail: the run ends non-zero and names it. A mutation whose text is no longer found is reported
// too, so the list cannot rot silently when the code moves.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

interface Mutation {
  rule: string;
  file: string;
  from: string;
  to: string;
  tests: string[];
}

const MUTATIONS: Mutation[] = [
  { rule: 'entitlement: the token audience is checked', file: 'services/entitlement/token-verifier.ts', from: '        audience: config.IDP_AUDIENCES,\n', to: '', tests: ['test/services/entitlement/tokens.test.ts'] },
  { rule: 'portal: a request from another origin is refused', file: 'services/portal/cross-site.ts', from: "if (origin !== `${req.protocol}://${req.get('host') ?? ''}`) return 'cross-origin request';", to: "if (origin === 'never') return 'cross-origin request';", tests: ['test/services/portal/requests.test.ts'] },
  { rule: 'portal: the sid cookie is HttpOnly', file: 'services/portal/cookies.ts', from: 'httpOnly: true,', to: 'httpOnly: false,', tests: ['test/services/portal/sign-in.test.ts'] },
  { rule: 'kit: log objects are scrubbed', file: 'services/kit/logger.ts', from: 'log: (object) => scrub(object) as Record<string, unknown>,', to: 'log: (object) => object,', tests: ['test/services/kit/logger.test.ts'] },
  { rule: 'kit: log messages are scrubbed', file: 'services/kit/logger.ts', from: "(typeof arg === 'string' ? scrubString(arg) : arg)", to: '(arg)', tests: ['test/services/kit/logger.test.ts'] },
  { rule: 'session: a dotted MAC address is refused as deviceRef', file: 'services/session/device-ref.ts', from: 'SEPARATED.test(value) || DOTTED.test(value) || BARE.test(value)', to: 'SEPARATED.test(value) || BARE.test(value)', tests: ['test/services/session/bad-input.test.ts'] },
  { rule: 'session: a grant over the device slots revokes the oldest', file: 'services/session/session-store.ts', from: 'OFFSET GREATEST($6::integer - 1, 0)', to: 'OFFSET GREATEST($6::integer - 1, 0) + 1000', tests: ['test/services/session/device-slots.test.ts'] },
  { rule: 'session: grants for one subject take its lock', file: 'services/session/session-store.ts', from: "pg_advisory_xact_lock(hashtext('wifi-session-subject:' || subject_id))::text", to: "'no-lock'::text", tests: ['test/services/session/concurrency.test.ts'] },
  { rule: 'authenticator: the 6th failed submit is refused without calling HR', file: 'kc-extension/employee-auth/submit-limit.ts', from: 'for (let slot = 1; slot <= limit; slot++) if (counters.claim(', to: 'for (let slot = 1; slot <= limit + 1; slot++) if (counters.claim(', tests: ['test/kc-extension/employee-auth/authenticate.test.ts'] },
  { rule: 'authenticator: only guesses count toward the submit limit', file: 'kc-extension/employee-auth/authenticate.ts', from: '    submits.release(employeeId, slot);\n', to: '', tests: ['test/kc-extension/employee-auth/authenticate.test.ts'] },
  { rule: 'contract: RATE_LIMITED is 429', file: 'contract/errors.ts', from: 'RATE_LIMITED: { status: 429,', to: 'RATE_LIMITED: { status: 430,', tests: ['test/contract/wire.test.ts'] },
  { rule: 'svc-admin: the citizen-number salt is claimed once, never replaced', file: 'kc-extension/svc-admin/import-route.ts', from: '  return context.host.store.claim(SALT_KEY, context.host.crypto.newSealedKey());', to: '  const salt = context.host.crypto.newSealedKey();\n  context.host.store.put(SALT_KEY, salt);\n  return salt;', tests: ['test/kc-extension/svc-admin/salt-claim.test.ts'] },
  { rule: "svc-admin: a company's webhook reaches only its own employees", file: 'kc-extension/svc-admin/webhook.ts', from: 'const users = holders.filter((user) => atCompany(user, code));', to: 'const users = holders;', tests: ['test/kc-extension/svc-admin/contract.test.ts'] },
  { rule: 'svc-admin: a replayed signature is DUPLICATE whatever its event id', file: 'kc-extension/svc-admin/webhook.ts', from: "    { window: `webhook-signatures/${code}`, key: context.host.request.header('X-SVC-Signature')?.trim() },\n", to: '', tests: ['test/kc-extension/svc-admin/contract.test.ts', 'test/kc-extension/svc-admin/webhook-memory.test.ts'] },
  { rule: "svc-admin: /api/* is for users holding manage-users now", file: 'kc-extension/svc-admin/authorize.ts', from: 'if (!context.host.users.hasClientRole(token.subject, REQUIRED_CLIENT, REQUIRED_ROLE)) {', to: "if (token.username === 'nobody') {", tests: ['test/kc-extension/svc-admin/authorize.test.ts'] },
  { rule: 'hr: 5 failed verifications per employee, then 429', file: 'services/hr/limits.ts', from: 'locked: (key: string): boolean => recent(key).length >= limit', to: 'locked: (key: string): boolean => recent(key).length > limit', tests: ['test/services/hr/limits.test.ts'] },
];

// Interrupted mid-run: put the mutated file back before leaving.
let restore: (() => void) | undefined;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    restore?.();
    process.exit(130);
  });
}

const survivors: string[] = [];
const lost: string[] = [];
for (const mutation of MUTATIONS) {
  const path = join(ROOT, mutation.file);
  const source = readFileSync(path, 'utf8');
  if (source.split(mutation.from).length !== 2) {
    lost.push(`${mutation.rule}: the text to change is not found exactly once in ${mutation.file}`);
    continue;
  }
  restore = () => writeFileSync(path, source);
  writeFileSync(path, source.replace(mutation.from, mutation.to));
  try {
    const run = spawnSync(process.execPath, [join(ROOT, 'node_modules/ava/entrypoints/cli.mjs'), ...mutation.tests], { cwd: ROOT, encoding: 'utf8' });
    const caught = run.status !== 0;
    process.stdout.write(`${caught ? 'caught  ' : 'SURVIVED'} ${mutation.rule}\n`);
    if (!caught) survivors.push(mutation.rule);
  } finally {
    restore();
    restore = undefined;
  }
}
process.stdout.write(`\n${MUTATIONS.length - survivors.length - lost.length} of ${MUTATIONS.length} mutations caught\n`);
for (const line of [...survivors.map((rule) => `survived: ${rule}`), ...lost]) process.stdout.write(`${line}\n`);
process.exit(survivors.length + lost.length === 0 ? 0 : 1);
