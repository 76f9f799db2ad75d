import test from 'ava';
import { memoryDriver } from './memory-driver.js';

test("the role is read from the token's user at every call: a token without role claims gets in, and not once the role is gone", async (t) => {
  const d = memoryDriver();
  const subject = d.realm.tokens.get(d.tokens.operator)!.subject;
  const call = async () => (await d.send({ method: 'GET', path: '/api/companies', token: d.tokens.operator })).status;
  t.is(await call(), 200);
  d.realm.realmRoles.set(subject, ['default-roles-wifi']);
  t.is(await call(), 403);
  d.realm.realmRoles.set(subject, ['default-roles-wifi', 'svc-admin']);
  t.is(await call(), 200);
});
