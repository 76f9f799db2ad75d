import test from 'ava';
import { readLogonAnswer } from '../../../services/portal/ui/client/gateway-hand-off.js';

// Issue 27: the page posts an OPNsense login itself and tells the person what the zone's logon
// API answered (opnsense/core AccessController::logonAction; test/contract/controllers/captures/opnsense.json).
for (const [what, status, body, outcome] of [
  ['AUTHORIZED (let in)', 200, { clientState: 'AUTHORIZED', ipAddress: '10.20.0.7', sessionId: 'x' }, 'connected'],
  ['NOT_AUTHORIZED (RADIUS refused)', 200, { clientState: 'NOT_AUTHORIZED', ipAddress: '10.20.0.7' }, 'refused'],
  ['UNKNOWN (no zone, or not let in)', 200, { clientState: 'UNKNOWN', ipAddress: '10.20.0.7' }, 'refused'],
  ['an answer that is not OPNsense\'s', 200, { ok: true }, 'unreachable'],
  ['no JSON', 200, null, 'unreachable'],
  ['an error status', 502, { clientState: 'AUTHORIZED' }, 'unreachable'],
] as const) {
  test(`an OPNsense logon answer ${what} reads ${outcome}`, (t) => {
    t.is(readLogonAnswer(status, body), outcome);
  });
}
