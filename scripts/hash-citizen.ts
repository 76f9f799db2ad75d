// Prints the fixture hash of a citizen number read from standard input, for adding a synthetic
// employee to fixtures/hr-employees.json:  echo 079201001234 | node --import tsx scripts/hash-citizen.ts
import { citizenHash } from '../services/hr/citizen-hash.js';

const key = process.env.HR_CITIZEN_HASH_KEY ?? 'dev-hr-citizen-hash-key';
let input = '';
for await (const chunk of process.stdin) input += String(chunk);
process.stdout.write(`${citizenHash(key, input.trim()).toString('hex')}\n`);
