// Where the running platform is (make test starts it on the spec ports).
export const URLS = {
  idp: process.env.IDP_URL ?? 'http://localhost:8080',
  portal: process.env.PORTAL_URL ?? 'http://127.0.0.1:3000',
  hr: process.env.HR_URL ?? 'http://127.0.0.1:3001',
  entitlement: process.env.ENTITLEMENT_URL ?? 'http://127.0.0.1:3002',
  session: process.env.SESSION_URL ?? 'http://127.0.0.1:3003',
  decision: process.env.DECISION_URL ?? 'http://127.0.0.1:3005',
  loyalty: process.env.LOYALTY_URL ?? 'http://127.0.0.1:3006',
};
