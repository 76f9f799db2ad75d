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
  { rule: 'portal: a request from another origin is refused', file: 'services/portal/cross-site.ts', from: "if (origin !== publicOrigin && origin !== `${req.protocol}://${req.get('host') ?? ''}`) return 'cross-origin request';", to: "if (origin === 'never') return 'cross-origin request';", tests: ['test/services/portal/requests.test.ts'] },
  { rule: 'portal: the sid cookie is HttpOnly', file: 'services/portal/cookies.ts', from: 'httpOnly: true,', to: 'httpOnly: false,', tests: ['test/services/portal/sign-in.test.ts'] },
  { rule: 'kit: log objects are scrubbed', file: 'services/kit/logger.ts', from: 'log: (object) => scrub(object) as Record<string, unknown>,', to: 'log: (object) => object,', tests: ['test/services/kit/logger.test.ts'] },
  { rule: 'kit: digit runs inside a UUID stay in the log (ids stay searchable)', file: 'services/kit/redaction.ts', from: '(run.length === 36 && !ALL_DIGITS.test(run.slice(24)) ? run : REDACTED)', to: '(REDACTED)', tests: ['test/services/kit/logger.test.ts'] },
  { rule: 'kit: a UUID whose last group is twelve digits is redacted whole', file: 'services/kit/redaction.ts', from: '!ALL_DIGITS.test(run.slice(24))', to: 'true', tests: ['test/services/kit/logger.test.ts'] },
  { rule: 'kit: log messages are scrubbed', file: 'services/kit/logger.ts', from: "(typeof arg === 'string' ? scrubString(arg) : arg)", to: '(arg)', tests: ['test/services/kit/logger.test.ts'] },
  { rule: 'session: a dotted MAC address is refused as deviceRef', file: 'contract/mac.ts', from: 'SEPARATED.test(value) || DOTTED.test(value) || HALVES', to: 'SEPARATED.test(value) || HALVES', tests: ['test/services/session/bad-input.test.ts'] },
  { rule: 'session: a grant over the device slots revokes the oldest', file: 'services/session/session-store.ts', from: 'OFFSET GREATEST($6::integer - 1, 0)', to: 'OFFSET GREATEST($6::integer - 1, 0) + 1000', tests: ['test/services/session/device-slots.test.ts'] },
  { rule: 'session: grants for one subject take its lock', file: 'services/session/session-store.ts', from: "pg_advisory_xact_lock(hashtext('wifi-session-subject:' || subject_id))::text", to: "'no-lock'::text", tests: ['test/services/session/concurrency.test.ts'] },
  { rule: 'authenticator: the 6th failed submit is refused without calling HR', file: 'kc-extension/employee-auth/submit-limit.ts', from: 'for (let slot = 1; slot <= limit; slot++) if (counters.claim(', to: 'for (let slot = 1; slot <= limit + 1; slot++) if (counters.claim(', tests: ['test/kc-extension/employee-auth/authenticate.test.ts'] },
  { rule: 'authenticator: only guesses count toward the submit limit', file: 'kc-extension/employee-auth/authenticate.ts', from: '    submits.release(employeeId, slot);\n', to: '', tests: ['test/kc-extension/employee-auth/authenticate.test.ts'] },
  { rule: 'authenticator: attempts per client address are limited before anything else (issue 29 item 6)', file: 'kc-extension/employee-auth/authenticate.ts', from: '.take(address) === undefined) {', to: '.take(address) === null) {', tests: ['test/kc-extension/employee-auth/authenticate.test.ts'] },
  { rule: 'authenticator: HR RATE_LIMITED keeps the submit slot taken (issue 29 item 6)', file: 'kc-extension/employee-auth/authenticate.ts', from: "(a flood would retry at once).\n      return refuse('rate_limited');", to: "(a flood would retry at once).\n      return refuseUncounted('rate_limited');", tests: ['test/kc-extension/employee-auth/authenticate.test.ts'] },
  { rule: 'portal: an employee grant tells Keycloak the client address (issue 29 item 6)', file: 'services/portal/idp-client.ts', from: "clientAddress === undefined ? {} : { 'X-Forwarded-For': clientAddress }", to: '{}', tests: ['test/services/portal/idp-client.test.ts'] },
  { rule: 'portal UI: a customer with an unverified email is told to check their mail (issue 29 item 10)', file: 'services/portal/ui/client/portal-session.ts', from: 'claims.email_verified === false;', to: 'claims.email_verified === true;', tests: ['test/services/portal/ui-verify-note.test.ts'] },
  { rule: 'mail catcher: the log names a message by id only, never its addresses or links (issue 29 item 10)', file: 'services/mailcatcher/smtp.ts', from: "logger.info({ mailId: caught.id, bytes: text.length }, 'mail caught');", to: "logger.info({ mailId: caught.id, bytes: text.length, to: caught.to, links: caught.links }, 'mail caught');", tests: ['test/services/mailcatcher/catcher.test.ts'] },
  { rule: 'portal: a verify mail that could not be sent is logged without the address (issue 29 item 10)', file: 'services/portal/sign-in-routes.ts', from: "if (created.verifyMail === 'not-sent') res.locals.log.warn(", to: "if (created.verifyMail === 'never') res.locals.log.warn(", tests: ['test/services/portal/requests.test.ts'] },
  { rule: 'contract: RATE_LIMITED is 429', file: 'contract/errors.ts', from: 'RATE_LIMITED: { status: 429,', to: 'RATE_LIMITED: { status: 430,', tests: ['test/contract/wire.test.ts'] },
  { rule: 'svc-admin: the citizen-number salt is claimed once, never replaced', file: 'kc-extension/svc-admin/import-route.ts', from: '  return context.host.store.claim(SALT_KEY, context.host.crypto.newSealedKey());', to: '  const salt = context.host.crypto.newSealedKey();\n  context.host.store.put(SALT_KEY, salt);\n  return salt;', tests: ['test/kc-extension/svc-admin/salt-claim.test.ts'] },
  { rule: 'entitlement: only a verified email is looked up at loyalty', file: 'services/entitlement/evaluate-entitlement.ts', from: 'facts.emailVerified ? facts.email : null', to: 'facts.email', tests: ['test/services/entitlement/evaluate.test.ts'] },
  { rule: 'portal: a second sign-in ends the one it replaces', file: 'services/portal/portal-session.ts', from: "const stored = replaces === 'another' ? await store.getToEnd(key) : undefined;", to: 'const stored = undefined as PortalSessionData | undefined;', tests: ['test/services/portal/session-flow.test.ts'] },
  { rule: 'kit: no development secret in production', file: 'services/kit/config.ts', from: "if (env['NODE_ENV'] === 'production') {", to: "if (env['NODE_ENV'] === 'never') {", tests: ['test/services/production-secrets.test.ts'] },
  { rule: 'store: one process per data folder', file: 'services/kit/store/pglite-database.ts', from: 'const lock = dataDir === undefined ? undefined : (options.lock ?? lockFolder(dataDir));', to: 'const lock = undefined as { release(): void } | undefined;', tests: ['test/services/kit/embedded-store.test.ts'] },
  { rule: 'portal: behind a TLS proxy the public https origin may sign in', file: 'services/portal/cross-site.ts', from: 'if (origin !== publicOrigin && origin !==', to: 'if (origin !==', tests: ['test/services/portal/behind-proxy.test.ts'] },
  { rule: 'portal: the cookie is Secure when the public URL is https', file: 'services/portal/cookies.ts', from: 'secure: publicHttps || req.secure', to: 'secure: req.secure', tests: ['test/services/portal/behind-proxy.test.ts'] },
  { rule: 'kit: a refusal before the request was read (a starting Keycloak) is sent again', file: 'services/kit/http-client.ts', from: 'const NOT_PROCESSED_RETRIES = 2;', to: 'const NOT_PROCESSED_RETRIES = 0;', tests: ['test/services/kit/http-client.test.ts'] },
  { rule: 'kit: forwarded headers are believed from configured proxies only', file: 'services/kit/app.ts', from: "app.set('trust proxy', proxies.length === 0 ? false : proxies);", to: "app.set('trust proxy', true);", tests: ['test/services/portal/behind-proxy.test.ts'] },
  { rule: 'session: the same device replaces its own session', file: 'services/session/session-store.ts', from: 'COALESCE(sessions.device_ref = decision.device_ref, false) AS same_device', to: 'false AS same_device', tests: ['test/services/session/device-slots.test.ts'] },
  { rule: 'portal: one device handle per browser', file: 'services/portal/cookies.ts', from: 'kept !== undefined && UUID.test(kept) ? kept : randomUUID()', to: 'randomUUID()', tests: ['test/services/portal/sign-in.test.ts'] },
  { rule: 'portal: entitlement and session calls give up after 5000 ms', file: 'services/portal/upstreams.ts', from: 'export const UPSTREAM_TIMEOUT_MS = 5000;', to: 'export const UPSTREAM_TIMEOUT_MS = 4000;', tests: ['test/services/spec-timeouts.test.ts'] },
  { rule: 'session: the change feed holds back changes behind a running transaction', file: 'services/session/change-feed.ts', from: ' AND tx < pg_snapshot_xmin(pg_current_snapshot())', to: '', tests: ['test/services/session/change-feed.test.ts'] },
  { rule: 'session: a grant of a GRANTED session past its expiry is refused and stores EXPIRED (issue 30: one statement)', file: 'services/session/session-store.ts', from: "WHEN ran_out THEN 'ran-out'", to: "WHEN false THEN 'ran-out'", tests: ['test/services/session/state-machine.test.ts'] },
  { rule: 'session: the same entitlement again is a replay that writes nothing (issue 30: one statement)', file: 'services/session/session-store.ts', from: "WHEN state = 'GRANTED' AND entitlement_id = $2 THEN 'replayed'", to: "WHEN false THEN 'replayed'", tests: ['test/services/session/state-machine.test.ts'] },
  { rule: 'session: a read past expiresAt answers and stores EXPIRED (the plain SELECT is not the answer then)', file: 'services/session/session-store.ts', from: "if (!ranOut(row, at)) return toRecord(row);", to: 'return toRecord(row);', tests: ['test/services/session/state-machine.test.ts'] },
  { rule: 'gateway: a credential is used once', file: 'services/gateway/credential-store.ts', from: 'WHERE username_hash = $1 AND used_at IS NULL AND', to: 'WHERE username_hash = $1 AND', tests: ['test/services/gateway/access.test.ts'] },
  { rule: 'gateway: a credential is bound to its device', file: 'services/gateway/access.ts', from: 'if (credential.deviceRef !== deviceRef)', to: 'if (credential.deviceRef === undefined)', tests: ['test/services/gateway/access.test.ts'] },
  { rule: 'gateway: Session-Timeout is the time left to expiresAt', file: 'services/gateway/access.ts', from: 'sessionSeconds: seconds,', to: 'sessionSeconds: 3600,', tests: ['test/services/gateway/access.test.ts'] },
  { rule: 'gateway: a credential lives at most 120 s', file: 'services/gateway/routes.ts', from: 'now.getTime() + deps.ttlSeconds * 1000', to: 'now.getTime() + deps.ttlSeconds * 10_000', tests: ['test/services/gateway/access.test.ts'] },
  { rule: 'gateway: CHAP covers the CHAP ident', file: 'services/gateway/credentials.ts', from: ".update(chapPassword.subarray(0, 1)).update(password)", to: '.update(password)', tests: ['test/services/gateway/access.test.ts'] },
  { rule: 'gateway: a revoked session\'s running connection gets a Disconnect-Request', file: 'services/gateway/connection-store.ts', from: 'WHERE session_id = ANY($1::text[]) AND stopped_at IS NULL AND disconnect_status IS NULL', to: 'WHERE session_id = ANY($1::text[]) AND false', tests: ['test/services/gateway/disconnect.test.ts'] },
  { rule: 'FreeRADIUS drops an Access-Request without Message-Authenticator (BlastRADIUS)', file: 'scripts/freeradius.ts', from: 'require_message_authenticator = yes', to: 'require_message_authenticator = no', tests: ['test/services/gateway/access.test.ts'] },
  { rule: 'gateway: a Disconnect-Request names the session by what its controller needs (profile list)', file: 'services/gateway/disconnect-sender.ts', from: '  for (const name of CONTROLLER_PROFILES[gateway.profile].disconnect) {', to: '  for (const name of [] as typeof CONTROLLER_PROFILES[typeof gateway.profile][\'disconnect\']) {', tests: ['test/services/gateway/disconnect-profiles.test.ts'] },
  { rule: 'gateway: a Disconnect-NAK with Error-Cause 503 counts as gone', file: 'services/gateway/disconnect-sender.ts', from: "reply.errorCause === SESSION_CONTEXT_NOT_FOUND ? 'GONE'", to: "reply.errorCause === -1 ? 'GONE'", tests: ['test/services/gateway/disconnect-profiles.test.ts'] },
  { rule: 'gateway: a connection\'s identifying attributes are erased at its Stop', file: 'services/gateway/connection-store.ts', from: "identity = CASE WHEN $6 = 'Stop' THEN NULL ELSE COALESCE(c.identity, EXCLUDED.identity) END", to: 'identity = COALESCE(c.identity, EXCLUDED.identity)', tests: ['test/services/gateway/disconnect-profiles.test.ts'] },
  { rule: 'gateway: pfSense re-authentication of a live session is accepted, other controllers\' replays are not', file: 'services/gateway/access.ts', from: '!(profile.reauthenticates === true && (await deps.credentials.stillInUse(hash)))', to: '!(await deps.credentials.stillInUse(hash))', tests: ['test/services/gateway/controllers.test.ts'] },
  { rule: 'MikroTik CHAP answer is MD5(chap-id + password + chap-challenge)', file: 'services/kit/controller-crypto.ts', from: "return md5(Buffer.from(arrival.chapId, 'hex'), password, challenge).toString('hex');", to: "return md5(Buffer.from([0]), password, challenge).toString('hex');", tests: ['test/services/gateway/controllers.test.ts'] },
  { rule: 'gateway: Accounting-On/Off closes the NAS\'s open connections', file: 'services/gateway/accounting.ts', from: "if (status !== undefined && NAS_RESTARTS.has(status)) return { kind: 'nas-restart', closed: await connections.closeAllOf(nasId, now) };", to: '', tests: ['test/services/gateway/nas-hygiene.test.ts'] },
  { rule: 'gateway: a reused Acct-Session-Id is a new connection', file: 'services/gateway/connection-store.ts', from: "      if (usage.status === 'Start') {\n", to: "      if (usage.status === 'never') {\n", tests: ['test/services/gateway/nas-hygiene.test.ts'] },
  { rule: 'gateway: a logoff at the gateway (User-Request Stop) ends the network session', file: 'services/gateway/accounting.ts', from: "return stopCause === 'User-Request' ?", to: "return stopCause === 'never' ?", tests: ['test/services/gateway/nas-hygiene.test.ts'] },
  { rule: 'gateway: a connection gone silent is closed as stale', file: 'services/gateway/connection-store.ts', from: 'WHERE stopped_at IS NULL AND updated_at < $1 RETURNING', to: 'WHERE stopped_at IS NULL AND updated_at < $1 - interval \'1 year\' RETURNING', tests: ['test/services/gateway/nas-hygiene.test.ts'] },
  { rule: 'gateway: a returning device\'s MAC authentication is accepted while its session lives', file: 'services/gateway/access.ts', from: '  return asMac !== undefined && asMac === normalizeMac(mac);', to: '  return asMac === undefined && asMac === normalizeMac(mac);', tests: ['test/services/gateway/returning-devices.test.ts'] },
  { rule: 'gateway: a returning device is let back in at the gateways of its venue group', file: 'services/kit/gateway-registry.ts', from: 'filter((other) => other.venue === gateway.venue)', to: 'filter((other) => other === gateway)', tests: ['test/services/gateway/returning-devices.test.ts'] },
  { rule: 'gateway: Disconnect-Requests carry a valid Message-Authenticator', file: 'services/gateway/disconnect.ts', from: '  const request = signed(\n', to: '  const request = ((packet: Buffer, _secret: string) => packet)(\n', tests: ['test/services/gateway/disconnect.test.ts'] },
  { rule: 'portal: a gateway context keeps no MAC', file: 'services/portal/gateway-arrival.ts', from: 'context: { profile: profileId, nasId: match.gateway.nasId, deviceRef,', to: 'context: { profile: profileId, nasId: match.gateway.nasId, deviceRef: `${deviceRef}:${arrival.mac}`,', tests: ['test/services/portal/gateway-context.test.ts'] },
  { rule: 'portal: no gateway credential, no sign-in (fail closed)', file: 'services/portal/sign-in.ts', from: "if (issued.kind === 'unreachable' || issued.status !== 201) throw upstreamFailure('gateway service');", to: "if (issued.kind === 'unreachable' || issued.status !== 201) return undefined as never;", tests: ['test/services/portal/gateway-context.test.ts'] },
  { rule: 'portal: captive until the gateway confirmed', file: 'services/portal/captive-route.ts', from: " || connection?.connected === false) return", to: ') return', tests: ['test/services/portal/gateway-context.test.ts'] },
  { rule: 'portal: gateway parameters are validated strictly', file: 'contract/controllers/coovachilli.ts', from: "challenge: z.string().regex(HEX_CHALLENGE, 'must be 32 hex digits').optional(),", to: 'challenge: z.string().optional(),', tests: ['test/services/portal/gateway-context.test.ts', 'test/contract/controllers/coovachilli.test.ts'] },
  // Issue 27: the gateway registry decides where a device logs in.
  { rule: 'registry: the login address is the registered one', file: 'services/kit/gateway-registry.ts', from: 'const loginUrl = gateway.loginUrls.find((registered) => registered === url);', to: 'const loginUrl = gateway.loginUrls[0];', tests: ['test/services/portal/gateway-context.test.ts', 'test/services/kit/gateway-registry.test.ts'] },
  { rule: 'portal: an unregistered gateway is refused on arrival', file: 'services/portal/gateway-arrival.ts', from: "  if (match.kind === 'unknown-gateway') return { kind: 'refused', why: 'unknown-gateway', problems: [] };\n", to: '', tests: ['test/services/portal/gateway-context.test.ts'] },
  { rule: "portal: CoovaChilli's md is checked when the gateway has a UAM secret", file: 'services/kit/controller-crypto.ts', from: "if (scheme === 'none' || secret === undefined) return true;", to: 'return true;', tests: ['test/services/portal/gateway-context.test.ts', 'test/contract/controllers/coovachilli.test.ts'] },
  { rule: 'portal: a gateway context is used once', file: 'services/portal/sign-in-routes.ts', from: '    await deps.gatewayContexts.drop(id);\n', to: '', tests: ['test/services/portal/gateway-context.test.ts'] },
  { rule: 'portal: /gateway is rate limited per address', file: 'services/portal/arrival-limit.ts', from: 'return used <= limit;', to: 'return true;', tests: ['test/services/portal/gateway-context.test.ts'] },
  { rule: 'portal: a return address is shown only after sign-in', file: 'services/portal/gateway-route.ts', from: 'const returnUrl = signedIn === undefined ? null :', to: 'const returnUrl = false ? null :', tests: ['test/services/portal/gateway-context.test.ts'] },
  // Issue 27: the OPNsense captive portal profile.
  { rule: 'registry: an OPNsense zone (the password itself) gets its login only over https', file: 'services/kit/gateway-registry.ts', from: 'if (CONTROLLER_PROFILES[entry.profile].login.requiresHttps === true && urls.some(', to: 'if (false && urls.some(', tests: ['test/services/kit/gateway-registry.test.ts'] },
  { rule: 'OPNsense: a first visit needs the zone\'s MAC (extended pre-auth data)', file: 'contract/controllers/opnsense.ts', from: "q.clientState === 'AUTHORIZED' || q.macAddress !== undefined", to: 'true', tests: ['test/contract/controllers/opnsense.test.ts'] },
  { rule: 'OPNsense: the login posts its logon API\'s user and password fields', file: 'contract/controllers/opnsense.ts', from: 'fields: (credential) => ({ user: credential.username,', to: 'fields: (credential) => ({ username: credential.username,', tests: ['test/contract/controllers/opnsense.test.ts'] },
  { rule: 'OPNsense: Acct-Interim-Interval is never under the 60 s it reads', file: 'contract/controllers/opnsense.ts', from: "'Acct-Interim-Interval': Math.max(60, interim!)", to: "'Acct-Interim-Interval': interim!", tests: ['test/contract/controllers/opnsense.test.ts'] },
  { rule: 'OPNsense: the Accept carries only what it reads (no WISPr)', file: 'contract/controllers/opnsense.ts', from: "  replyAttributes: opnsenseAttributes,\n", to: "  replyAttributes: (limits) => ({ ...opnsenseAttributes(limits), 'WISPr-Bandwidth-Max-Up': limits.upBitsPerSecond }),\n", tests: ['test/services/gateway/opnsense.test.ts'] },
  { rule: 'OPNsense: the arrival is matched by the logon URL under the zone\'s origin', file: 'contract/controllers/opnsense.ts', from: 'loginUrl: new URL(OPNSENSE_LOGON_PATH, q.zone_url).href,', to: 'loginUrl: q.zone_url,', tests: ['test/services/portal/opnsense-arrival.test.ts'] },
  { rule: 'OPNsense: the page posts the login itself (handOff script), never leaving the person on its JSON', file: 'services/portal/gateway-context.ts', from: "...(profile.login.handOff === 'script' ? { handOff: 'script' as const } : {})", to: '...{}', tests: ['test/services/portal/opnsense-arrival.test.ts'] },
  { rule: 'OPNsense: the page may call exactly the zone\'s logon URL (connect-src)', file: 'services/portal/ui-router.ts', from: "gatewayLoginUrl === undefined ? \"connect-src 'self'\" : `connect-src 'self' ${gatewayLoginUrl}`,", to: "\"connect-src 'self'\",", tests: ['test/services/portal/opnsense-arrival.test.ts'] },
  { rule: 'OPNsense: a NOT_AUTHORIZED logon answer is told as refused, never as connected', file: 'services/portal/ui/client/gateway-hand-off.ts', from: "if (state === 'AUTHORIZED') return 'connected';", to: "if (state === 'AUTHORIZED' || state === 'NOT_AUTHORIZED') return 'connected';", tests: ['test/services/portal/ui-gateway-hand-off.test.ts'] },
  { rule: 'OPNsense: the page posts the login form-encoded (its logon API\'s getPost)', file: 'services/portal/ui/client/gateway-hand-off.ts', from: 'body: new URLSearchParams(fields),', to: 'body: JSON.stringify(fields),', tests: ['test/services/portal/ui-gateway-hand-off.test.ts'] },
  { rule: 'OPNsense: a login the browser would not send from script falls back to the form', file: 'services/portal/ui/client/gateway-hand-off.ts', from: "    return 'blocked';\n", to: "    return 'unreachable';\n", tests: ['test/services/portal/ui-gateway-hand-off.test.ts'] },
  { rule: 'gateway: Class is believed only from the NAS the credential was used at', file: 'services/gateway/accounting.ts', from: ' && (await credentials.usedAt(fromClass, nasId))', to: '', tests: ['test/services/gateway/accounting-trust.test.ts'] },
  { rule: 'session: revoking a subject ends its open sessions', file: 'services/session/session-store.ts', from: "WHERE subject_id = $1 AND state IN ('CREATED', 'GRANTED') FOR UPDATE", to: "WHERE subject_id = $1 AND state IN ('CREATED') FOR UPDATE", tests: ['test/services/session/revoke-subject.test.ts'] },
  { rule: "svc-admin: a company's webhook reaches only its own employees", file: 'kc-extension/svc-admin/webhook.ts', from: 'const users = holders.filter((user) => atCompany(user, code));', to: 'const users = holders;', tests: ['test/kc-extension/svc-admin/contract.test.ts'] },
  { rule: 'svc-admin: a replayed signature is DUPLICATE whatever its event id', file: 'kc-extension/svc-admin/webhook.ts', from: "    { key: signatureKey(code, context.host.request.header('X-SVC-Signature')), ttl: SIGNATURE_TTL_SECONDS },\n", to: '', tests: ['test/kc-extension/svc-admin/contract.test.ts', 'test/kc-extension/svc-admin/webhook-memory.test.ts'] },
  { rule: "svc-admin: /api/* is for users holding the operator role now", file: 'kc-extension/svc-admin/authorize.ts', from: 'if (!context.host.users.hasRealmRole(token.subject, OPERATOR_ROLE)) {', to: "if (token.username === 'nobody') {", tests: ['test/kc-extension/svc-admin/authorize.test.ts'] },
  { rule: 'svc-admin: a terminated employee\'s network sessions end', file: 'kc-extension/svc-admin/webhook.ts', from: "const review = event.type === 'EMPLOYEE_TERMINATED' || event.type === 'EMPLOYEE_SUSPENDED' ? endNetworkSessions(", to: "const review = event.type === 'EMPLOYEE_TERMINATED' && event.type === 'EMPLOYEE_SUSPENDED' ? endNetworkSessions(", tests: ['test/kc-extension/svc-admin/webhook-memory.test.ts'] },
  { rule: 'hr: 5 failed verifications per employee, then 429', file: 'services/hr/limits.ts', from: 'locked: (key: string): boolean => recent(key).length >= limit', to: 'locked: (key: string): boolean => recent(key).length > limit', tests: ['test/services/hr/limits.test.ts'] },
  // Issue 19: the DMN engine's FEEL, DMN 1.5 boxed expressions and imports.
  { rule: "dmn: decimal() and round half even round a tie to the even digit", file: "dmn/engine/feel-decimal.ts", from: "(twice === unit && kept % 2n === 1n)", to: "(twice === unit && kept % 2n === 0n)", tests: ["test/dmn/engine/feel-strings-numbers.test.ts"] },
  { rule: "dmn: rounding works on decimal digits, not the double", file: "dmn/engine/feel-decimal.ts", from: "const text = decimal(n).toExponential();", to: "const text = n.toExponential(20);", tests: ["test/dmn/engine/feel-strings-numbers.test.ts"] },
  { rule: "dmn: zoned date and time subtraction is by instant", file: "dmn/engine/feel-arithmetic.ts", from: "    if (difference !== null) return difference;\n", to: "", tests: ["test/dmn/engine/feel-temporal.test.ts"] },
  { rule: "dmn: -duration is the negated duration", file: "dmn/engine/feel-arithmetic.ts", from: "if (a instanceof FeelDuration) return negateDuration(a);", to: "", tests: ["test/dmn/engine/feel-temporal.test.ts"] },
  { rule: "dmn: feelin evaluates our arithmetic (operators rewritten)", file: "dmn/engine/feel-rewrite.ts", from: "if (fn !== null) return `${fn}((${render(first)}), (${render(third)}))`;", to: "", tests: ["test/dmn/engine/feel-semantics.test.ts"] },
  { rule: "dmn: before(range, range) with touching open ends", file: "dmn/engine/feel-intervals.ts", from: "\'a.end < b.start or ((not(a.end included) or not(b.start included)) and a.end = b.start)\'", to: "\'a.end < b.start\'", tests: ["test/dmn/engine/feel-ranges.test.ts"] },
  { rule: "dmn: matches flag x strips pattern whitespace", file: "dmn/engine/feel-regex.ts", from: "const source = given.includes(\'x\') ? withoutWhitespace(pattern) : pattern;", to: "const source = pattern;", tests: ["test/dmn/engine/feel-strings-numbers.test.ts"] },
  { rule: "dmn: replace $0 is the whole match", file: "dmn/engine/feel-regex.ts", from: "out += Number(digits) < groups.length ? (groups[Number(digits)] ?? \'\') : \'\';", to: "out += Number(digits) < groups.length && digits !== \'0\' ? (groups[Number(digits)] ?? \'\') : \'\';", tests: ["test/dmn/engine/feel-strings-numbers.test.ts"] },
  { rule: "dmn: years and months duration drops the days", file: "dmn/engine/feel-builtins.ts", from: "  \'years and months duration\': yearsAndMonthsDuration,\n", to: "", tests: ["test/dmn/engine/feel-temporal.test.ts"] },
  { rule: "dmn: DMN 1.5 every is false when one item fails", file: "dmn/engine/compile-newer-boxed.ts", from: "if (iterator === \'every\' && result !== true) return false;", to: "if (iterator === \'every\' && result === false) return false;", tests: ["test/dmn/engine/newer-boxed.test.ts"] },
  { rule: "dmn: DMN 1.5 conditional takes then only when true", file: "dmn/engine/compile-newer-boxed.ts", from: "return test === true ? whenTrue(frame) : whenFalse(frame);", to: "return test !== false ? whenTrue(frame) : whenFalse(frame);", tests: ["test/dmn/engine/newer-boxed.test.ts"] },
  { rule: "dmn: imported typeRefs resolve in the imported model", file: "dmn/engine/imports.ts", from: "if (typeRef.startsWith(`${prefix}.`)) return model.exported.types(typeRef.slice(prefix.length + 1));", to: "", tests: ["test/services/decision/imported-models.test.ts"] },
  { rule: "dmn: typeRef dayTimeDuration is a days and time duration", file: "dmn/engine/type-ref.ts", from: "  dayTimeDuration: \'days and time duration\',\n", to: "", tests: ["test/dmn/engine/feel-temporal.test.ts"] },
  { rule: "dmn: an imported decision is evaluated from the input data under the prefix", file: "dmn/engine/imports.ts", from: "        context[name] = value;\n", to: "", tests: ["test/services/decision/imported-models.test.ts"] },
  { rule: "dmn: the imported input data has a slot apart from the imported knowledge", file: "dmn/engine/model-plan.ts", from: "(needs.importNeeds.has(name) ? importInputSlot(name) : slot(name))", to: "slot(name)", tests: ["test/services/decision/imported-models.test.ts"] },
  // Issue 29: security and reliability, second review.
  { rule: 'kit: a JSON body is read only after the API key is checked', file: 'services/kit/route.ts', from: 'router[spec.method](spec.path, ...steps, ...checkParams, ...read, ...bodySteps, terminal);', to: 'router[spec.method](spec.path, ...read, ...steps, ...checkParams, ...bodySteps, terminal);', tests: ['test/services/kit/api-key.test.ts'] },
  { rule: 'kit: an AES-GCM tag shorter than 16 bytes does not open', file: 'services/kit/sealing.ts', from: ", { authTagLength: TAG_BYTES });", to: ");", tests: ['test/services/kit/sealing.test.ts'] },
  // Issue 30: metrics.
  { rule: 'metrics: RADIUS rejects count by their reason', file: 'services/gateway/access.ts', from: "  [NOT_VALID]: 'not-valid',", to: "  [NOT_VALID]: 'other',", tests: ['test/services/gateway/radius-metrics.test.ts'] },
  { rule: 'metrics: Disconnect answers are counted', file: 'services/gateway/disconnect-sender.ts', from: '        radiusDisconnects.inc({ nas, answer: status });\n', to: '', tests: ['test/services/gateway/radius-metrics.test.ts'] },
  // Issue 27 item 3: CoA-Request when a running session's limits change.
  { rule: 'coa: a session granted again under new limits queues a CoA', file: 'services/gateway/feed-follower.ts', from: "c.state === 'GRANTED' && c.fromState === 'GRANTED'", to: 'false', tests: ['test/services/gateway/coa.test.ts'] },
  { rule: 'coa: the CoA-Request carries the new limits', file: 'services/gateway/disconnect-sender.ts', from: ', ...Object.entries(limitAttributesOf(settings, gateway, lookup.session, seconds))]', to: ']', tests: ['test/services/gateway/coa.test.ts'] },
  { rule: 'coa: only controllers that take a CoA get one', file: 'services/gateway/app.ts', from: '.filter((gateway) => CONTROLLER_PROFILES[gateway.profile].coa)', to: '', tests: ['test/services/gateway/coa.test.ts'] },
  // Issue 30: nothing burns at idle; the change feed wakes its followers.
  { rule: 'feed: a committed session event wakes held reads (NOTIFY)', file: 'services/session/migrations/003_feed_notify.sql', from: "  PERFORM pg_notify('session_events', '');\n", to: '', tests: ['test/services/session/feed-wake.test.ts'] },
  { rule: 'feed: a held read wakes at the next session expiry', file: 'services/session/change-feed.ts', from: 'Math.max(0, expiry - options.now().getTime())', to: 'Number.POSITIVE_INFINITY', tests: ['test/services/session/feed-wake.test.ts'] },
  { rule: 'feed: a stopping service answers held reads at once', file: 'services/session/feed-wake.ts', from: '    closed = true;\n    for (const wake of [...sleepers]) wake();\n  };', to: '    closed = true;\n  };', tests: ['test/services/session/feed-wake.test.ts'] },
  { rule: 'metrics: requests count under the route template, never the path as sent', file: 'services/kit/metrics.ts', from: "const route = typeof template === 'string' ? `${req.baseUrl}${template}` : 'unmatched';", to: 'const route = req.path;', tests: ['test/services/kit/metrics.test.ts'] },
  { rule: 'metrics: outbound calls count by outcome', file: 'services/kit/http-client.ts', from: "    outboundCalls.inc({ peer: target, outcome: `status_${Math.floor(response.status / 100)}xx` });\n", to: '', tests: ['test/services/kit/metrics.test.ts'] },
  // Issue 29 item 4: test and demo switches refused in production.
  { rule: 'production: TEST_HARNESS and EXPOSE_TOKEN are refused', file: 'services/kit/config.ts', from: 'filter((name) => config[name] === true)', to: 'filter((name) => config[name] === 0)', tests: ['test/services/production-secrets.test.ts'] },
  // Issue 29 item 1: svc-admin has an operator role of its own; the portal's service account is no operator.
  { rule: 'svc-admin: the API needs the realm role svc-admin', file: 'kc-extension/svc-admin/authorize.ts', from: 'if (!context.host.users.hasRealmRole(token.subject, OPERATOR_ROLE)) {', to: "if (!context.host.users.hasRealmRole(token.subject, OPERATOR_ROLE) && token.clientId !== 'wifi-portal-api') {", tests: ['test/kc-extension/svc-admin/contract.test.ts'] },
  { rule: 'svc-admin: every /api route is authorized, not only some', file: 'kc-extension/svc-admin/router.ts', from: "if (path.startsWith('/api/')) authorize(context);", to: "if (path.startsWith('/api/companies')) authorize(context);", tests: ['test/kc-extension/svc-admin/contract.test.ts'] },
  // Issue 29 item 4: the test harness routes, when on, need the service's key with scope harness.
  { rule: 'harness: /admin/fault needs a key with scope harness', file: 'services/kit/fault-harness.ts', from: '      steps: [guard],\n', to: '', tests: ['test/services/hr/faults.test.ts', 'test/services/loyalty/lookup.test.ts'] },
  { rule: 'harness: /admin/reset-limits needs a key with scope harness', file: 'services/hr/app.ts', from: '        steps: [harnessKey],\n', to: '', tests: ['test/services/hr/faults.test.ts'] },
  // Issue 29 items 2, 3, 4 (Keycloak side): replays cluster-wide and by time, the rollback switch, the start check.
  { rule: 'svc-admin: a signature is remembered while its timestamp is accepted (two skews)', file: 'kc-extension/svc-admin/webhook.ts', from: 'const SIGNATURE_TTL_SECONDS = (2 * MAX_SKEW_MS) / 1000 + 60;', to: 'const SIGNATURE_TTL_SECONDS = MAX_SKEW_MS / 1000;', tests: ['test/kc-extension/svc-admin/webhook-memory.test.ts'] },
  { rule: 'svc-admin: event ids are remembered for a day', file: 'kc-extension/svc-admin/webhook.ts', from: 'const EVENT_ID_TTL_SECONDS = 24 * 60 * 60;', to: 'const EVENT_ID_TTL_SECONDS = 60 * 60;', tests: ['test/kc-extension/svc-admin/webhook-memory.test.ts'] },
  { rule: 'svc-admin: the rollback switch is honoured only with the harness on', file: 'kc-extension/svc-admin/webhook.ts', from: 'const forceRollback = context.host.testHarness && context.host.request.header(', to: 'const forceRollback = context.host.request.header(', tests: ['test/kc-extension/svc-admin/webhook-memory.test.ts'] },
  { rule: 'svc-admin: the rollback switch needs an operator token', file: 'kc-extension/svc-admin/webhook.ts', from: '  if (forceRollback) authorize(context);\n', to: '', tests: ['test/kc-extension/svc-admin/webhook-memory.test.ts'] },
  { rule: 'kc start: a production start refuses development secrets and test switches', file: 'kc-extension/start-check.ts', from: "  if (facts.devMode) return '';", to: "  if (!facts.devMode) return '';", tests: ['test/kc-extension/start-check.test.ts'] },
  // A cluster run (~8 minutes): the cluster's Keycloak build compiles the mutated wrapper.
  { rule: 'cluster: a webhook replay sent to the other Keycloak node is DUPLICATE (cluster-wide single-use store)', file: 'spi-wrapper/src/main/java/wifi/kc/AdminHostFacade.java', from: 'return ONCE_PREFIX + realm.getId() + ":" + key;', to: 'return ONCE_PREFIX + realm.getId() + ":" + key + "@" + java.lang.management.ManagementFactory.getRuntimeMXBean().getName();', tests: ['test/cluster/failover.test.ts'] },
  // Issue 29 item 7: one key per caller, scoped.
  { rule: 'keys per caller: a known key without the route\'s scope is 403', file: 'services/kit/api-key.ts', from: 'if (scope !== undefined && !caller.scopes.includes(scope))', to: 'if (scope !== undefined && caller.scopes.length === 0)', tests: ['test/services/kit/api-key.test.ts', 'test/services/session/caller-keys.test.ts'] },
  { rule: 'keys per caller: every key of the list is accepted (rotation)', file: 'services/kit/api-key.ts', from: 'for (const entry of accepted) {', to: 'for (const entry of accepted.slice(-1)) {', tests: ['test/services/kit/api-key.test.ts', 'test/services/session/caller-keys.test.ts'] },
  { rule: 'keys per caller: the change feed needs the changes scope', file: 'services/session/routes.ts', from: "steps: [key('changes')],", to: "steps: [key('read')],", tests: ['test/services/session/caller-keys.test.ts'] },
  { rule: 'keys per caller: revoking a subject needs the revoke-subject scope', file: 'services/session/routes.ts', from: "steps: [key('revoke-subject')],", to: "steps: [key('revoke')],", tests: ['test/services/session/caller-keys.test.ts'] },
  { rule: 'keys per caller: opening a session needs the create scope', file: 'services/session/routes.ts', from: "steps: [key('create')],", to: "steps: [key('read')],", tests: ['test/services/session/caller-keys.test.ts'] },
  { rule: 'keys per caller: issuing a gateway credential needs the credentials scope', file: 'services/gateway/routes.ts', from: "steps: [key('credentials')],", to: "steps: [key('connections')],", tests: ['test/services/gateway/caller-keys.test.ts'] },
  { rule: 'keys per caller: a key list keeping one development key is refused in production', file: 'services/kit/config.ts', from: 'return secretsIn(shipped.data).some((secret) => kept.includes(secret));', to: 'return secretsIn(shipped.data).every((secret) => kept.includes(secret));', tests: ['test/services/production-secrets.test.ts'] },
  // Issue 29 item 5: the data-folder lock.
  { rule: 'store lock: a zombie owner is not an owner', file: 'services/kit/store/folder-lock.ts', from: "if (now.state === 'Z' || now.state === 'X') return false;", to: "if (now.state === 'never') return false;", tests: ['test/services/kit/folder-lock.test.ts'] },
  { rule: 'store lock: the lock file appears whole', file: 'services/kit/store/folder-lock.ts', from: '      createWhole(path, JSON.stringify(mine));\n', to: "      const fd = openSync(path, 'wx', 0o600);\n      writeSync(fd, JSON.stringify(mine));\n      closeSync(fd);\n", tests: ['test/services/kit/folder-lock.test.ts'] },
  { rule: 'store lock: the restore command opens the folder under the lock it took', file: 'services/kit/store/pglite-database.ts', from: '(options.lock ?? lockFolder(dataDir))', to: 'lockFolder(dataDir)', tests: ['test/services/kit/store-command.test.ts'] },
  // Issue 29 item 9: a second sign-in ends the first also after its sid expired.
  { rule: 'portal psid: the psid cookie names the sign-in to end once sid expired', file: 'services/portal/portal-session.ts', from: "...(replaces === 'another' ? [readPreviousKey(req)] : [])", to: '...[]', tests: ['test/services/portal/session-flow.test.ts'] },
  { rule: 'portal psid: a sign-in kept for ending is no sign-in', file: 'services/portal/portal-session-store.ts', from: '(liveOnly && row.expires_at.getTime() <= at.getTime())', to: '(liveOnly && false)', tests: ['test/services/portal/session-flow.test.ts'] },
  // Issue 29 item 6: strangers cannot lock employees out.
  { rule: 'employee address limit: employee sign-ins are limited per client address', file: 'services/portal/sign-in-routes.ts', from: 'steps: [sameOriginJson, perAddress.step],', to: 'steps: [sameOriginJson],', tests: ['test/services/portal/employee-address-limit.test.ts'] },
  { rule: 'employee address limit: the limit is counted per address, not for everyone', file: 'services/portal/sign-in-routes.ts', from: "(req) => req.ip ?? req.socket.remoteAddress ?? 'unknown'", to: "() => 'everyone'", tests: ['test/services/portal/employee-address-limit.test.ts'] },
  // Issue 18: the production cluster (each failover mutation is one cluster run, ~8 minutes).
  { rule: 'cluster: Keycloak refuses development secrets in production', file: 'scripts/cluster/secrets.ts', from: 'if (kept.length > 0) throw new DevelopmentSecretError(kept);', to: 'if (kept.length < 0) throw new DevelopmentSecretError(kept);', tests: ['test/cluster/production-secrets.test.ts'] },
  { rule: 'cluster: nginx passes a request that found its peer dead on to the other peer', file: 'scripts/cluster/nginx.ts', from: "failures = 'error timeout') =>", to: "failures = 'off') =>", tests: ['test/cluster/failover.test.ts'] },
  { rule: 'cluster: nginx takes a Keycloak node out while it answers 503 (bootstrapping)', file: 'scripts/cluster/nginx.ts', from: "proxied('keycloak', '', 'error timeout http_503')", to: "proxied('keycloak', '', 'error timeout')", tests: ['test/cluster/failover.test.ts'] },
  { rule: 'cluster: every portal instance opens every cookie (one PORTAL_TOKEN_KEY)', file: 'scripts/cluster/services.ts', from: 'PORTAL_TOKEN_KEY: secrets.PORTAL_TOKEN_KEY,', to: "PORTAL_TOKEN_KEY: randomBytes(32).toString('base64'),", tests: ['test/cluster/failover.test.ts'] },
  { rule: 'openNDS: the decrypted query must name the registered gateway', file: 'services/portal/opennds-arrival.ts', from: 'fields === undefined || fields.gatewayname !== gateway.nasId', to: 'fields === undefined', tests: ['test/services/portal/opennds-arrival.test.ts'] },
  { rule: 'openNDS: the query\'s gateway address must be registered', file: 'services/portal/opennds-arrival.ts', from: 'address === undefined || !gateway.loginUrls.includes(address)', to: 'address === undefined', tests: ['test/services/portal/opennds-arrival.test.ts'] },
  { rule: 'openNDS: a hid a sign-in used is a replayed query', file: 'services/portal/opennds-arrival.ts', from: 'if (await deps.hidUsed(fields.hid))', to: 'if (fields.hid === \'never\')', tests: ['test/services/portal/opennds-arrival.test.ts'] },
  { rule: 'openNDS: authmon requests count only from the registered gateway address', file: 'services/gateway/opennds-routes.ts', from: 'plainAddress(body.callerAddress) !== plainAddress(gateway.address) || body.gatewayhash', to: 'body.gatewayhash', tests: ['test/services/gateway/opennds.test.ts'] },
  { rule: 'openNDS: the authorisation carries the QoS table\'s rates', file: 'services/gateway/opennds-routes.ts', from: 'uploadKbitPerSecond: Math.floor(limits.up / 1000),', to: 'uploadKbitPerSecond: 0,', tests: ['test/services/gateway/opennds.test.ts'] },
  { rule: 'openNDS: an ended session\'s clients are listed for revocation-poll', file: 'services/gateway/connection-store.ts', from: "WHERE session_id = ANY($1::text[]) AND state IN ('PENDING', 'AUTHORISED')", to: "WHERE session_id = ANY($1::text[]) AND state IN ('NONE')", tests: ['test/services/gateway/opennds.test.ts'] },
  { rule: 'openNDS: a BinAuth notice ends only the client whose token it names', file: 'services/gateway/opennds-store.ts', from: 'WHERE nas_id = $1 AND hid = $2 AND state', to: 'WHERE nas_id = $1 AND $2::text IS NOT NULL AND state', tests: ['test/services/gateway/opennds.test.ts'] },
  { rule: 'openNDS: the authorisation carries the QoS row\'s download quota', file: 'services/gateway/opennds-routes.ts', from: 'downloadQuotaKB: limits.downQuotaKB,', to: 'downloadQuotaKB: 0,', tests: ['test/services/gateway/opennds.test.ts'] },
];

// Interrupted mid-run: put the mutated file back before leaving.
let restore: (() => void) | undefined;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    restore?.();
    process.exit(130);
  });
}

/**
 * Caught means a test failed on an assertion: ava's TAP output names the failure AssertionError.
 * A mutant that only breaks loading or start-up (a syntax error, a service that cannot boot)
 * proves nothing about the tests, so it is reported as not caught.
 */
const failedOnAssertion = (tap: string): boolean => /^not ok /m.test(tap) && /^\s+name: AssertionError$/m.test(tap);

// Arguments narrow the run to the mutations whose rule contains one of them.
const only = process.argv.slice(2);
const selected = MUTATIONS.filter((mutation) => only.length === 0 || only.some((word) => mutation.rule.includes(word)));
const survivors: string[] = [];
const lost: string[] = [];
for (const mutation of selected) {
  const path = join(ROOT, mutation.file);
  const source = readFileSync(path, 'utf8');
  if (source.split(mutation.from).length !== 2) {
    lost.push(`${mutation.rule}: the text to change is not found exactly once in ${mutation.file}`);
    continue;
  }
  restore = () => writeFileSync(path, source);
  writeFileSync(path, source.replace(mutation.from, mutation.to));
  try {
    const run = spawnSync(process.execPath, [join(ROOT, 'node_modules/ava/entrypoints/cli.mjs'), '--tap', ...mutation.tests], { cwd: ROOT, encoding: 'utf8' });
    const caught = run.status !== 0 && failedOnAssertion(run.stdout);
    process.stdout.write(`${caught ? 'caught  ' : 'SURVIVED'} ${mutation.rule}\n`);
    if (!caught) survivors.push(mutation.rule);
  } finally {
    restore();
    restore = undefined;
  }
}
process.stdout.write(`\n${selected.length - survivors.length - lost.length} of ${selected.length} mutations caught\n`);
for (const line of [...survivors.map((rule) => `survived: ${rule}`), ...lost]) process.stdout.write(`${line}\n`);
process.exit(survivors.length + lost.length === 0 ? 0 : 1);
