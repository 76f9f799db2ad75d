package wifi.kc;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Which client secrets a production start refuses (RealmFacts, read at PostMigrationEvent). */
class RealmFactsTest {

    @Test
    void theShippedSecretsAreDevelopmentSecrets() {
        assertTrue(RealmFacts.isDevelopmentSecret("dev-portal-api-secret"));
        assertTrue(RealmFacts.isDevelopmentSecret("dev-portal-employee-api-secret"));
    }

    @Test
    void aSiteSecretOrNoSecretIsNot() {
        assertFalse(RealmFacts.isDevelopmentSecret("a-secret-of-this-site"));
        // A client without a secret (bearer-only, or a realm's management client) must not stop the start.
        assertFalse(RealmFacts.isDevelopmentSecret(null));
    }
}
