import test from 'ava';
import { adminApi, adminToken } from '../keycloak/kc-client.js';
import { kcDriver } from './kc-driver.js';

// A realm imported by a test run once froze the test run's temporary models
// folder into the realm, and `make up` then showed empty decision pages. The folder is Keycloak's
// run-time setting (DMN_DIR), so no realm attribute, old or planted, can move it.
test('the decision pages list the models of the folder Keycloak runs with, whatever a realm attribute says', async (t) => {
  const d = await kcDriver();
  t.teardown(() => d.close());
  const master = await adminToken();
  const { attributes } = (await adminApi(master, 'GET', '')) as { attributes: Record<string, string> };
  t.teardown(async () => adminApi(await adminToken(), 'PUT', '', { attributes }));
  await adminApi(master, 'PUT', '', { attributes: { ...attributes, 'svc-admin.modelsDir': '/tmp/wifi-no-such-models-folder' } });
  const reply = await d.send({ method: 'GET', path: '/api/dmn/models', token: d.tokens.operator });
  t.is(reply.status, 200);
  t.true(JSON.stringify(reply.body).includes('WifiEntitlement'), JSON.stringify(reply.body));
});
