// `make up-cluster`: the production topology on this machine (scripts/cluster.ts), until Ctrl-C.
import { clusterOptionsFromEnv, startCluster } from './cluster.js';
import { DevelopmentSecretError } from './cluster/secrets.js';

const say = (line: string) => process.stdout.write(`${line}\n`);
let cluster: Awaited<ReturnType<typeof startCluster>>;
try {
  cluster = await startCluster(clusterOptionsFromEnv(process.env, say));
} catch (error) {
  if (error instanceof DevelopmentSecretError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  throw error;
}
const running = cluster;
say(`
Cluster is up.
  portal and Keycloak (TLS, self-signed): ${running.publicUrl}/   (certificate: ${running.nginx.ca.length > 0 ? 'nginx/cert.pem in the run folder' : '?'})
  Keycloak admin console: ${running.publicUrl}/admin/  (admin / the KC_BOOTSTRAP_ADMIN_PASSWORD in ${running.secretsFile})
  this run's secrets (mode 0600): ${running.secretsFile}
  services: ${running.services.map((service) => `${service.name}-${service.instance} ${service.url}`).join(', ')}
  prometheus: ${running.prometheus?.url ?? 'not installed'}   (queries: docs/operate/metrics.md)
  keycloak nodes: ${running.keycloak.map((slot) => `${slot.name} ${slot.current().url} (management ${slot.current().managementUrl})`).join(', ')}
  logs: ${running.keycloak[0]?.current().log.replace(/[^/]*$/, '')}
Ctrl-C stops it.
`);
const stop = async () => {
  await running.stop();
  process.exit(0);
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
setInterval(() => undefined, 1 << 30);
