/**
 * A production Keycloak refuses development secrets and test switches however it
 * is started, not only through the cluster launcher (scripts/cluster/secrets.ts). spi-wrapper
 * gathers the facts at start-up (StartFacts.java: whether Keycloak runs `start-dev`, which of the
 * extension's own settings are still at the development value it falls back to, which test
 * switches are on) and refuses to start when this answers a problem. Values never cross: only names.
 */
export interface StartFacts {
  /** Keycloak runs `start-dev` (its profile `dev`), not `start`. */
  devMode: boolean;
  /** Settings of the extension still at their shipped development value (or unset, falling back to it). */
  developmentDefaults: string[];
  /** Test switches that are on (TEST_HARNESS). */
  switches: string[];
}

/** '' when Keycloak may start; otherwise one line naming every setting to change (never a value). */
export function startRefusal(facts: StartFacts): string {
  if (facts.devMode) return '';
  const problems = [
    ...facts.developmentDefaults.map((name) => `${name} is still the development default; set a secret of your own`),
    ...facts.switches.map((name) => `${name} is a test switch; leave it off`),
  ];
  return problems.length === 0 ? '' : `wifi extension: a production Keycloak (kc.sh start) refuses to start: ${problems.join('; ')} (kc.sh start-dev is for development)`;
}
