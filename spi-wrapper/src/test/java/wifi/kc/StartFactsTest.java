package wifi.kc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;

import org.junit.jupiter.api.Test;

/** The facts the extension's start check judges (kc-extension/start-check.ts): names, never values. */
class StartFactsTest {

    private static final String NO_REALM_FACTS = ",\"developmentClientSecrets\":[],\"demoPasswords\":[],\"adminCliPasswordGrants\":[]";

    @Test
    void unsetAndDevelopmentValuesAreNamedAndTheHarnessIsASwitch() {
        assertEquals("{\"devMode\":false,\"developmentDefaults\":[\"SVC_ADMIN_SEAL_KEY\",\"SESSION_API_KEY\",\"WIFI_VOUCHER_HASH_KEY\",\"SVC_ADMIN_GATEWAY_KEY\",\"SVC_ADMIN_ENTITLEMENT_KEY\",\"SVC_ADMIN_PORTAL_KEY\"],\"switches\":[]" + NO_REALM_FACTS + "}",
                StartFacts.json(false, Map.of(), RealmFacts.none()));
        assertEquals("{\"devMode\":true,\"developmentDefaults\":[\"SVC_ADMIN_SEAL_KEY\",\"SESSION_API_KEY\",\"WIFI_VOUCHER_HASH_KEY\",\"SVC_ADMIN_GATEWAY_KEY\",\"SVC_ADMIN_ENTITLEMENT_KEY\",\"SVC_ADMIN_PORTAL_KEY\"],\"switches\":[\"TEST_HARNESS\"]" + NO_REALM_FACTS + "}",
                StartFacts.json(true, Map.of("SVC_ADMIN_SEAL_KEY", "dev-svc-admin-seal-key", "SESSION_API_KEY", "dev-session-key", "TEST_HARNESS", "true"), RealmFacts.none()));
    }

    @Test
    void secretsOfTheOperatorsOwnAreNotNamed() {
        assertEquals("{\"devMode\":false,\"developmentDefaults\":[],\"switches\":[]" + NO_REALM_FACTS + "}",
                StartFacts.json(false, Map.of("SVC_ADMIN_SEAL_KEY", "a-key-of-this-site", "SESSION_API_KEY", "another-key", "WIFI_VOUCHER_HASH_KEY", "a-voucher-key", "TEST_HARNESS", "false",
                        "SVC_ADMIN_GATEWAY_KEY", "k1", "SVC_ADMIN_ENTITLEMENT_KEY", "k2", "SVC_ADMIN_PORTAL_KEY", "k3"), RealmFacts.none()));
    }

    @Test
    void realmFindingsAreNamedAndQuoted() {
        RealmFacts realms = RealmFacts.none();
        realms.developmentClientSecrets.add("wifi/wifi-portal-api");
        realms.demoPasswords.add("wifi/svc-operator");
        realms.adminCliPasswordGrants.add("odd\"realm/admin-cli");
        assertEquals("{\"devMode\":false,\"developmentDefaults\":[],\"switches\":[],\"developmentClientSecrets\":[\"wifi/wifi-portal-api\"],"
                + "\"demoPasswords\":[\"wifi/svc-operator\"],\"adminCliPasswordGrants\":[\"odd\\\"realm/admin-cli\"]}",
                StartFacts.json(false, Map.of("SVC_ADMIN_SEAL_KEY", "a-key-of-this-site", "SESSION_API_KEY", "another-key", "WIFI_VOUCHER_HASH_KEY", "a-voucher-key",
                        "SVC_ADMIN_GATEWAY_KEY", "k1", "SVC_ADMIN_ENTITLEMENT_KEY", "k2", "SVC_ADMIN_PORTAL_KEY", "k3"), realms));
    }
}
