// Seals a gateway's RADIUS or UAM secret, or an openNDS faskey, for fixtures/gateways.json:
//   echo -n 'the-secret' | node --import tsx scripts/seal-secret.ts
// with the same GATEWAY_SEAL_KEY the gateway service runs with (its default when unset).
import { createSealer, loadConfig } from '../services/kit/index.js';
import { GatewayConfig } from '../services/gateway/config.js';

const chunks: Buffer[] = [];
for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
const secret = Buffer.concat(chunks).toString('utf8').replace(/\n$/, '');
if (secret.length < 8) {
  process.stderr.write('seal-secret: give a secret of at least 8 characters on stdin\n');
  process.exit(1);
}
process.stdout.write(`${createSealer(loadConfig(GatewayConfig).GATEWAY_SEAL_KEY).seal(secret)}\n`);
