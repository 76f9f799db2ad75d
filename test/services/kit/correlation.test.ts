import test from 'ava';
import { acceptCorrelationId, createServiceApp, healthRoute } from '../../../services/kit/index.js';
import { boot, capturingLogger } from '../../helpers/service.js';

const WELL_FORMED = 'corr-123e4567-e89b-42d3-a456-426614174000';

test('a well-formed correlation id is kept', (t) => {
  t.is(acceptCorrelationId(WELL_FORMED), WELL_FORMED);
});

for (const bad of [undefined, '', 'abc', '079201001234', 'corr-079201001234', `${WELL_FORMED}x`, 'corr-<script>']) {
  test(`a correlation id of ${JSON.stringify(bad)} is replaced by a generated one`, (t) => {
    const id = acceptCorrelationId(bad);
    t.not(id, bad);
    t.regex(id, /^corr-[0-9a-f-]{36}$/);
  });
}

test('every response echoes the correlation id, and a citizen number sent as one never comes back or reaches a log', async (t) => {
  const { logger, lines } = capturingLogger();
  const service = await boot(t, createServiceApp({ service: 'x', logger, routes: [healthRoute('x')] }));
  const kept = await service.request('GET', '/health', { headers: { 'X-Correlation-ID': WELL_FORMED } });
  t.is(kept.headers.get('x-correlation-id'), WELL_FORMED);
  const replaced = await service.request('GET', '/nope', { headers: { 'X-Correlation-ID': '079201001234' } });
  t.regex(String(replaced.headers.get('x-correlation-id')), /^corr-/);
  t.is(replaced.body.correlationId, replaced.headers.get('x-correlation-id'));
  t.false(replaced.text.includes('079201001234'));
  t.false(lines.join('\n').includes('079201001234'));
});
