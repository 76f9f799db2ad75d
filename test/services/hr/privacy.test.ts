import test from 'ava';
import { ACTIVE, HARNESS, INACTIVE, hrService } from './hr-service.js';

test('known citizen numbers never appear in a response or in anything the process logged', async (t) => {
  const { service, verify, lines } = await hrService(t, { HR_GLOBAL_LIMIT: '1000' });
  const numbers = [ACTIVE.citizenId, INACTIVE.citizenId, '987650001234', '079201009999', '1234567890123', '12345678'];
  const texts: string[] = [];
  const send = async (body: unknown, headers?: Record<string, string>) => texts.push((await verify(body, headers)).text);
  await send(ACTIVE);
  await send(INACTIVE);
  await send({ employeeId: 'CANARY-01', citizenId: '987650001234' });
  for (let i = 0; i < 6; i += 1) await send({ employeeId: ACTIVE.employeeId, citizenId: '079201009999' });
  await send({ employeeId: 'A-1001', citizenId: '1234567890123' });
  await send({ employeeId: 'A-1001', citizenId: '12345678' });
  await send(ACTIVE, { 'X-API-Key': 'wrong', 'X-Correlation-ID': ACTIVE.citizenId });
  texts.push(
    (
      await service.request('POST', '/api/v1/employees/verify', {
        raw: `{"citizenId":"${ACTIVE.citizenId}"`,
        headers: { 'X-API-Key': 'dev-hr-key', 'content-type': 'application/json' },
      })
    ).text,
  );
  await service.request('POST', '/admin/fault', { headers: HARNESS, json: { mode: 'unavailable' } });
  await send(ACTIVE);
  const everything = `${texts.join('\n')}\n${lines.join('\n')}`;
  t.true(lines.length > 10, 'the service did log its requests');
  for (const number of numbers) t.false(everything.includes(number), `${number} leaked`);
});
