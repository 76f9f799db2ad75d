import test from 'ava';
import { decisionService, evaluatePath } from './decision-service.js';

// Models using DMN 1.5 boxed expressions and FEEL temporal values, served over HTTP.
const MODELS = 'test/dmn/models/venue';

const sessions = [
  { start: '2024-12-29T23:00:00Z', minutes: 90 },
  { start: '2024-12-30T10:00:00+01:00', minutes: 30 },
];

// [what it checks (DMN section), model, inputs, decision, expected result]
const cases: Array<[string, string, Record<string, unknown>, string, unknown]> = [
  [
    'DMN 1.5 conditional, IANA zone input (10.3.2.3.5)',
    'VenueSessions15',
    { arrival: '2024-12-31T21:30:00@Europe/Paris', sessions: [], grace: 'PT0S' },
    'Open',
    'OPEN',
  ],
  ['DMN 1.5 conditional, else branch', 'VenueSessions15', { arrival: '2024-12-31T22:00:00Z', sessions: [], grace: 'PT0S' }, 'Open', 'CLOSED'],
  [
    'DMN 1.5 filter over item definitions with dateTime components',
    'VenueSessions15',
    { arrival: '2024-01-01T10:00:00Z', sessions, grace: 'PT0S' },
    'LongSessions',
    [sessions[0]],
  ],
  [
    'DMN 1.5 for: date and time + number * duration + dayTimeDuration (table 57)',
    'VenueSessions15',
    { arrival: '2024-01-01T10:00:00Z', sessions, grace: 'PT10M' },
    'SessionEnds',
    ['2024-12-30T00:40:00Z', '2024-12-30T10:40:00+01:00'],
  ],
  ['DMN 1.5 some: day of week (10.3.4.8)', 'VenueSessions15', { arrival: '2024-01-01T10:00:00Z', sessions, grace: 'PT0S' }, 'AnyOnSunday', true],
  [
    'DMN 1.5 every: ISO week of year across the year end (10.3.4.8)',
    'VenueSessions15',
    { arrival: '2024-01-01T10:00:00Z', sessions, grace: 'PT0S' },
    'AllInWeek1',
    false,
  ],
  ['DMN 1.5 every on the empty list is true', 'VenueSessions15', { arrival: '2024-01-01T10:00:00Z', sessions: [], grace: 'PT0S' }, 'AllInWeek1', true],
  [
    'list replace (DMN 1.5 10.3.4.4) over a path of a list',
    'VenueSessions15',
    { arrival: '2024-01-01T10:00:00Z', sessions, grace: 'PT0S' },
    'Minutes',
    [0, 30],
  ],
  [
    'date and time in an IANA zone + years and months duration (table 57)',
    'VenueSessions15',
    { arrival: '2024-01-31T21:30:00@Europe/Paris', sessions: [], grace: 'PT0S' },
    'ValidUntil',
    '2024-02-29T21:30:00@Europe/Paris',
  ],
  [
    'table cell < an IANA-zoned @ literal, compared across zones (10.3.2.12 table 49)',
    'VenueSessions15',
    { arrival: '2024-12-31T22:30:00Z', sessions: [], grace: 'PT0S' },
    'PolicyYear',
    '2024',
  ],
  [
    'table cell range of IANA-zoned @ literals: 23:30Z is already 2025 in Paris',
    'VenueSessions15',
    { arrival: '2024-12-31T23:30:00Z', sessions: [], grace: 'PT0S' },
    'PolicyYear',
    '2025',
  ],
];

for (const [what, model, inputs, decision, expected] of cases) {
  test(`over HTTP, ${model} ${decision}: ${what}`, async (t) => {
    const service = await decisionService(t, MODELS);
    const answer = await service.request('POST', evaluatePath(model), { json: { decision, inputs } });
    t.is(answer.status, 200, answer.text);
    t.deepEqual((answer.body.results as Record<string, unknown>)[decision], expected);
  });
}

test('over HTTP, a temporal input that is not ISO text is a 422 naming the decision and the input', async (t) => {
  const service = await decisionService(t, MODELS);
  const answer = await service.request('POST', evaluatePath('VenueSessions15'), { json: { decision: 'Open', inputs: { arrival: 'tomorrow' } } });
  t.is(answer.status, 422, answer.text);
  t.regex(String(answer.body.message), /decision 'Open', input data 'arrival'/);
});
