package wifi.kc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;

import org.junit.jupiter.api.Test;

/** The facts the extension's start check judges (kc-extension/start-check.ts): names, never values. */
class StartFactsTest {

    @Test
    void unsetAndDevelopmentValuesAreNamedAndTheHarnessIsASwitch() {
        assertEquals("{\"devMode\":false,\"developmentDefaults\":[\"SVC_ADMIN_SEAL_KEY\",\"SESSION_API_KEY\"],\"switches\":[]}",
                StartFacts.json(false, Map.of()));
        assertEquals("{\"devMode\":true,\"developmentDefaults\":[\"SVC_ADMIN_SEAL_KEY\",\"SESSION_API_KEY\"],\"switches\":[\"TEST_HARNESS\"]}",
                StartFacts.json(true, Map.of("SVC_ADMIN_SEAL_KEY", "dev-svc-admin-seal-key", "SESSION_API_KEY", "dev-session-key", "TEST_HARNESS", "true")));
    }

    @Test
    void secretsOfTheOperatorsOwnAreNotNamed() {
        assertEquals("{\"devMode\":false,\"developmentDefaults\":[],\"switches\":[]}",
                StartFacts.json(false, Map.of("SVC_ADMIN_SEAL_KEY", "a-key-of-this-site", "SESSION_API_KEY", "another-key", "TEST_HARNESS", "false")));
    }
}
