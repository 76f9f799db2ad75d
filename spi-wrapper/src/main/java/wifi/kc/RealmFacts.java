package wifi.kc;

import java.util.ArrayList;
import java.util.List;

import org.keycloak.Config;
import org.keycloak.models.ClientModel;
import org.keycloak.models.Constants;
import org.keycloak.models.KeycloakSession;
import org.keycloak.models.RealmModel;
import org.keycloak.models.UserCredentialModel;
import org.keycloak.models.UserModel;

/**
 * What a production start must not serve from the realms themselves, gathered once the realms
 * are imported and migrated (Keycloak's PostMigrationEvent): confidential clients still holding a
 * client secret the repository ships, the demo operator still signing in with its shipped
 * password, and realms whose {@code admin-cli} takes password grants (the master realm's is
 * Keycloak's own administration path and is left alone). Names only, as {@code realm/name}.
 */
final class RealmFacts {

    /** The client secrets realm-export.json falls back to when its placeholders are unset. */
    static final List<String> DEVELOPMENT_CLIENT_SECRETS = List.of("dev-portal-api-secret", "dev-portal-employee-api-secret", "dev-portal-phone-api-secret",
            "dev-portal-voucher-api-secret");
    /** The demo operator of realm-dev.json. */
    static final String DEMO_OPERATOR = "svc-operator";
    static final String DEMO_OPERATOR_PASSWORD = "operator-demo-pass";

    final List<String> developmentClientSecrets = new ArrayList<>();
    final List<String> demoPasswords = new ArrayList<>();
    final List<String> adminCliPasswordGrants = new ArrayList<>();

    private RealmFacts() {
    }

    static RealmFacts none() {
        return new RealmFacts();
    }

    static RealmFacts of(KeycloakSession session) {
        RealmFacts facts = new RealmFacts();
        session.realms().getRealmsStream().forEach(realm -> facts.add(session, realm));
        return facts;
    }

    /**
     * A bearer-only or secretless client (the master realm's {@code <realm>-realm} clients, for one)
     * holds no secret: null, which List.of's contains refuses with a NullPointerException.
     */
    static boolean isDevelopmentSecret(String secret) {
        return secret != null && DEVELOPMENT_CLIENT_SECRETS.contains(secret);
    }

    private void add(KeycloakSession session, RealmModel realm) {
        // Checking a password needs the session bound to the user's realm, as a request is.
        session.getContext().setRealm(realm);
        realm.getClientsStream().forEach(client -> {
            if (!client.isPublicClient() && isDevelopmentSecret(client.getSecret())) {
                developmentClientSecrets.add(realm.getName() + "/" + client.getClientId());
            }
        });
        UserModel operator = session.users().getUserByUsername(realm, DEMO_OPERATOR);
        if (operator != null && operator.credentialManager().isValid(UserCredentialModel.password(DEMO_OPERATOR_PASSWORD))) {
            demoPasswords.add(realm.getName() + "/" + DEMO_OPERATOR);
        }
        ClientModel adminCli = realm.getClientByClientId(Constants.ADMIN_CLI_CLIENT_ID);
        if (!Config.getAdminRealm().equals(realm.getName()) && adminCli != null && adminCli.isEnabled() && adminCli.isDirectAccessGrantsEnabled()) {
            adminCliPasswordGrants.add(realm.getName() + "/" + Constants.ADMIN_CLI_CLIENT_ID);
        }
    }
}
