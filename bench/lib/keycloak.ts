// A bench's own Keycloak: started by scripts/kc.sh on the bench's port and run folder (never the
// one `make up` serves), and the admin steps the sign-in benches share.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './load.js';

/** A form-encoded POST, as Keycloak's token endpoint takes it. */
export const form = (fields: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields),
});

const EMPLOYEE_FLOW = 'employee direct grant';

export interface BenchKeycloak {
  /** Its base URL (`http://localhost:<port>`). */
  readonly url: string;
  /** Runs `scripts/kc.sh <args>` against this Keycloak (build, start --fresh, stop). */
  kc(...args: string[]): void;
  /** The pid of the launcher; Java runs as its child. */
  pid(): number;
  /** A master-realm admin token (the bench Keycloak's development admin). */
  adminToken(): Promise<string>;
  /**
   * The employee authenticator limits sign-ins per client address; a bench signs one employee in
   * from one address thousands of times, so in its own Keycloak that limit is lifted.
   */
  liftEmployeeLimits(): Promise<void>;
}

export function benchKeycloak(options: { port: number; runDir: string; hrUrl: string }): BenchKeycloak {
  const url = `http://localhost:${options.port}`;
  const adminToken = async (): Promise<string> => {
    const token = await fetch(
      `${url}/realms/master/protocol/openid-connect/token`,
      form({ grant_type: 'password', client_id: 'admin-cli', username: 'admin', password: 'admin' }),
    );
    return ((await token.json()) as { access_token: string }).access_token;
  };
  return {
    url,
    kc(...args: string[]): void {
      const run = spawnSync(join(ROOT, 'scripts/kc.sh'), args, {
        cwd: ROOT,
        env: {
          ...process.env,
          KC_PORT: String(options.port),
          KC_MGMT_PORT: String(options.port + 1000),
          KC_RUN_DIR: options.runDir,
          HR_URL: options.hrUrl,
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      if (run.status !== 0) throw new Error(`scripts/kc.sh ${args.join(' ')} failed (${run.status})`);
    },
    pid: () => Number(readFileSync(`${options.runDir}.pid`, 'utf8').trim()),
    adminToken,
    async liftEmployeeLimits(): Promise<void> {
      const headers = { authorization: `Bearer ${await adminToken()}`, 'content-type': 'application/json' };
      const executions = (await (
        await fetch(`${url}/admin/realms/wifi/authentication/flows/${encodeURIComponent(EMPLOYEE_FLOW)}/executions`, { headers })
      ).json()) as { authenticationConfig?: string }[];
      const id = executions.find((execution) => execution.authenticationConfig !== undefined)?.authenticationConfig;
      if (id === undefined) throw new Error(`no configured execution in the flow ${EMPLOYEE_FLOW}`);
      const config = `${url}/admin/realms/wifi/authentication/config/${id}`;
      const current = (await (await fetch(config, { headers })).json()) as { config: Record<string, string> };
      const update = await fetch(config, {
        method: 'PUT',
        headers,
        body: JSON.stringify({ ...current, config: { ...current.config, addressLimit: '1000000' } }),
      });
      if (update.status !== 204) throw new Error(`lifting the employee limits answered ${update.status}: ${await update.text()}`);
    },
  };
}
