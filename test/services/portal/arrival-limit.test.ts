import test from 'ava';
import { arrivalKeyOf, createArrivalLimit } from '../../../services/portal/arrival-limit.js';
import { bootPortal, defaultFakes } from './portal-fakes.js';

// Arrivals at /gateway are limited per client address and all together. An IPv6 device picks any
// address of its /64 at will (privacy addresses), so IPv6 is counted per /64; IPv4, also as a
// dual-stack socket reports it (::ffff:a.b.c.d), per address.

const clock = () => {
  let at = 0;
  return { now: () => at, advance: (ms: number) => (at += ms) };
};

test('IPv6 addresses are counted by their /64, IPv4 (also IPv4-mapped) by the address', (t) => {
  t.is(arrivalKeyOf('2001:db8:1:2:aaaa:bbbb:cccc:dddd'), arrivalKeyOf('2001:0db8:0001:0002::1'));
  t.not(arrivalKeyOf('2001:db8:1:2::1'), arrivalKeyOf('2001:db8:1:3::1'));
  t.is(arrivalKeyOf('::ffff:192.0.2.7'), '192.0.2.7');
  t.not(arrivalKeyOf('::ffff:192.0.2.7'), arrivalKeyOf('::ffff:192.0.2.8'), 'IPv4 clients of a dual-stack socket are not one /64');
});

test('one device changing its IPv6 address within its /64 gets no new budget; another /64 has its own', (t) => {
  const { now } = clock();
  const limit = createArrivalLimit(3, 60_000, 1000, now);
  for (let i = 1; i <= 3; i++) t.true(limit.take(`2001:db8:1:2::${i.toString(16)}`));
  t.false(limit.take('2001:db8:1:2:ffff:ffff:ffff:ffff'), 'a fourth address of the same /64');
  t.true(limit.take('2001:db8:1:3::1'));
  t.true(limit.take('::ffff:192.0.2.7'));
  t.true(limit.take('::ffff:192.0.2.8'));
});

test('the global ceiling refuses everyone past it until the window ends; an arrival refused for its address does not use it up', (t) => {
  const { now, advance } = clock();
  const limit = createArrivalLimit(2, 60_000, 4, now);
  t.true(limit.take('192.0.2.1'));
  t.true(limit.take('192.0.2.1'));
  for (let i = 0; i < 5; i++) t.false(limit.take('192.0.2.1'), 'over its own limit');
  t.true(limit.take('192.0.2.2'));
  t.true(limit.take('192.0.2.3'));
  t.false(limit.take('192.0.2.4'), 'a fresh address past the ceiling');
  t.is(limit.retryAfterSeconds(), 60);
  advance(60_000);
  t.true(limit.take('192.0.2.4'));
});

test.serial('/gateway: two addresses of one IPv6 /64 share the limit (a 429 page), another /64 does not', async (t) => {
  const portal = await bootPortal(t, defaultFakes(), { GATEWAY_ARRIVAL_LIMIT: '2', PORTAL_TRUSTED_PROXIES: 'loopback' });
  const from = (address: string) => portal.page('/gateway', { 'x-forwarded-for': address });
  t.is((await from('2001:db8:7:7::1')).status, 303);
  t.is((await from('2001:db8:7:7::2')).status, 303);
  const limited = await from('2001:db8:7:7:1234:5678:9abc:def0');
  t.is(limited.status, 429);
  t.regex(limited.text, /Too many sign-in links/);
  t.is((await from('2001:db8:7:8::1')).status, 303);
});

test.serial('/gateway: past GATEWAY_ARRIVAL_GLOBAL_LIMIT every address gets the 429 page', async (t) => {
  const portal = await bootPortal(t, defaultFakes(), { GATEWAY_ARRIVAL_GLOBAL_LIMIT: '3', PORTAL_TRUSTED_PROXIES: 'loopback' });
  for (const address of ['192.0.2.1', '192.0.2.2', '192.0.2.3']) t.is((await portal.page('/gateway', { 'x-forwarded-for': address })).status, 303);
  const limited = await portal.page('/gateway', { 'x-forwarded-for': '192.0.2.4' });
  t.is(limited.status, 429);
  t.regex(limited.headers.get('retry-after') ?? '', /^\d+$/);
});
