import test from 'ava';
import { must, waitFor, withoutMacs } from '../../scripts/opennds/command.js';

test('MAC addresses are replaced in anything the harness may print', (t) => {
  t.is(withoutMacs('Adding 192.168.77.11 02:6E:64:73:00:11 token ab'), 'Adding 192.168.77.11 <mac> token ab');
});

test('a failed command names itself without the MAC in its arguments', async (t) => {
  const error = await t.throwsAsync(must('sh', ['-c', 'exit 3', 'sh', '02:6e:64:73:00:11']));
  t.regex(error?.message ?? '', /exited 3/);
  t.false((error?.message ?? '').includes('02:6e'));
});

test('waitFor returns the first defined value, or fails naming what it waited for', async (t) => {
  let calls = 0;
  t.is(await waitFor('third call', async () => (++calls === 3 ? 'done' : undefined), 2000, 1), 'done');
  await t.throwsAsync(
    waitFor('never', async () => undefined, 50, 10),
    { message: 'never: not within 50 ms' },
  );
});
