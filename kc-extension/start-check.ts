/**
 * A production Keycloak refuses development secrets, demo credentials and test switches however
 * it is started, not only through the cluster launcher (scripts/cluster/secrets.ts). spi-wrapper
 * gathers the facts once the realms are imported (StartFacts.java, RealmFacts.java: whether
 * Keycloak runs `start-dev`, which of the extension's own settings are still at the development
 * value it falls back to, which test switches are on, what the realms still hold of the
 * development data) and refuses to start when this answers a problem. Values never cross: only names.
 */
export interface StartFacts {
  /** Keycloak runs `start-dev` (its profile `dev`), not `start`. */
  devMode: boolean;
  /** Settings of the extension still at their shipped development value (or unset, falling back to it). */
  developmentDefaults: string[];
  /** Test switches that are on (TEST_HARNESS). */
  switches: string[];
  /** Clients (`realm/clientId`) whose secret is one the repository ships. */
  developmentClientSecrets: string[];
  /** Users (`realm/username`) who still sign in with the demo operator's shipped password. */
  demoPasswords: string[];
  /** `realm/admin-cli` of realms other than master whose admin-cli takes password grants. */
  adminCliPasswordGrants: string[];
}

/** '' when Keycloak may start; otherwise one line naming every setting to change (never a value). */
export function startRefusal(facts: StartFacts): string {
  if (facts.devMode) return '';
  const problems = [
    ...facts.developmentDefaults.map((name) => `${name} is still the development default; set a secret of your own`),
    ...facts.switches.map((name) => `${name} is a test switch; leave it off`),
    ...facts.developmentClientSecrets.map((name) => `client ${name} still has its shipped development secret; set one of your own`),
    ...facts.demoPasswords.map(
      (name) => `user ${name} still signs in with the demo password; import realm-export.json alone (realm-dev.json is for development) or change it`,
    ),
    ...facts.adminCliPasswordGrants.map((name) => `${name} takes password grants; turn its direct access grants off`),
  ];
  return problems.length === 0
    ? ''
    : `wifi extension: a production Keycloak (kc.sh start) refuses to start: ${problems.join('; ')} (kc.sh start-dev is for development)`;
}
