import test from 'ava';
import { decisionService, evaluatePath } from './decision-service.js';

// DMN 1.3 chapter 11's loan origination example (decisions, BKMs as tables,
// contexts and literal expressions, boxed invocations, item definitions, two decision services),
// written from the chapter's description, served over HTTP.
const MODELS = 'test/dmn/models/loan';

const applicant = (over: Record<string, unknown> = {}) => ({
  Age: 35,
  MaritalStatus: 'M',
  EmploymentStatus: 'EMPLOYED',
  ExistingCustomer: false,
  Monthly: { Income: 10000, Repayments: 2500, Expenses: 3000 },
  ...over,
});
const product = { ProductType: 'STANDARD LOAN', Rate: 0.08, Term: 36, Amount: 100000 };
const bureau = (over: Record<string, unknown> = {}) => ({ Bankrupt: false, CreditScore: 600, ...over });

// [what it checks (chapter 11 section), inputs, decision asked for, expected results]
const cases: Array<[string, Record<string, unknown>, string | undefined, Record<string, unknown>]> = [
  [
    '11.3 the whole model: score 40+45+45, LOW before the bureau, MEDIUM after, unaffordable at 0.7',
    { 'Applicant data': applicant(), 'Requested product': product, 'Bureau data': bureau() },
    undefined,
    {
      'Application risk score': 130,
      'Pre-bureau risk category': 'LOW',
      'Required monthly installment': 3153.63654614173,
      'Pre-bureau affordability': true,
      Eligibility: 'ELIGIBLE',
      'Bureau call type': 'MINI',
      Strategy: 'BUREAU',
      'Post-bureau risk category': 'MEDIUM',
      'Post-bureau affordability': false,
      Routing: 'DECLINE',
    },
  ],
  [
    '11.4 Bureau Strategy Decision Service answers its two output decisions',
    { 'Applicant data': applicant(), 'Requested product': product },
    'Bureau Strategy Decision Service',
    { Strategy: 'BUREAU', 'Bureau call type': 'MINI' },
  ],
  [
    '11.3 a young existing customer who is a student is declined before the bureau',
    { 'Applicant data': applicant({ Age: 20, MaritalStatus: 'S', EmploymentStatus: 'STUDENT', ExistingCustomer: true }), 'Requested product': product },
    'Strategy',
    { Strategy: 'DECLINE' },
  ],
  [
    '11.3 a very low risk applicant goes through without a bureau call',
    { 'Applicant data': applicant({ Age: 55 }), 'Requested product': product },
    'Strategy',
    { Strategy: 'THROUGH' },
  ],
  [
    '11.4 Routing Decision Service: bankrupt is declined',
    {
      'Applicant data': applicant({ Monthly: { Income: 20000, Repayments: 0, Expenses: 0 } }),
      'Requested product': product,
      'Bureau data': bureau({ Bankrupt: true }),
    },
    'Routing Decision Service',
    { Routing: 'DECLINE' },
  ],
  [
    '11.3 routing: affordable, LOW after the bureau, accepted',
    {
      'Applicant data': applicant({ Monthly: { Income: 20000, Repayments: 0, Expenses: 0 } }),
      'Requested product': product,
      'Bureau data': bureau({ CreditScore: 700 }),
    },
    'Routing',
    { Routing: 'ACCEPT' },
  ],
  [
    '11.3 routing: a credit score under 580 is referred',
    {
      'Applicant data': applicant({ Age: 55, Monthly: { Income: 20000, Repayments: 0, Expenses: 0 } }),
      'Requested product': product,
      'Bureau data': bureau({ CreditScore: 500 }),
    },
    'Routing',
    { Routing: 'REFER' },
  ],
];

for (const [what, inputs, decision, expected] of cases) {
  test(`over HTTP, LoanOrigination ${decision ?? '(all decisions)'}: ${what}`, async (t) => {
    const service = await decisionService(t, MODELS);
    const answer = await service.request('POST', evaluatePath('LoanOrigination'), { json: decision === undefined ? { inputs } : { decision, inputs } });
    t.is(answer.status, 200, answer.text);
    t.deepEqual(answer.body.results, expected);
  });
}

test('over HTTP, an applicant outside the allowed ages is null plus a problem naming the component', async (t) => {
  const service = await decisionService(t, MODELS);
  const answer = await service.request('POST', evaluatePath('LoanOrigination'), {
    json: { decision: 'Application risk score', inputs: { 'Applicant data': applicant({ Age: 16 }) } },
  });
  t.is(answer.status, 200, answer.text);
  t.deepEqual(answer.body.results, { 'Application risk score': null });
  t.like((answer.body.problems as unknown[])[0], { cell: "input data 'Applicant data'" });
});
