package wifi.kc;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.keycloak.common.util.Environment;

/**
 * What the extension's start check (kc-extension/start-check.ts) judges, gathered once at
 * Keycloak's start: whether Keycloak runs {@code start-dev} (the profile
 * {@code dev} Keycloak sets for it; {@code start} runs the production profile), which of the
 * extension's own settings still fall back to the development values shipped here, and which test
 * switches are on. Names only: no setting's value leaves this class.
 */
final class StartFacts {

    private StartFacts() {
    }

    static String json() {
        return json(Environment.isDevMode(), System.getenv());
    }

    static String json(boolean devMode, Map<String, String> env) {
        List<String> developmentDefaults = new ArrayList<>();
        if (SecretSealer.isDevelopmentKey(env.get(SecretSealer.SETTING))) {
            developmentDefaults.add(SecretSealer.SETTING);
        }
        if (AdminHostFacade.isDevelopmentSessionKey(env.get(AdminHostFacade.SESSION_KEY_SETTING))) {
            developmentDefaults.add(AdminHostFacade.SESSION_KEY_SETTING);
        }
        List<String> switches = new ArrayList<>();
        if (testHarness(env)) {
            switches.add("TEST_HARNESS");
        }
        // Written by hand: the values are fixed setting names (no quoting needed), and the unit test
        // runs without Keycloak's JSON module on the class path.
        return "{\"devMode\":" + devMode + ",\"developmentDefaults\":" + names(developmentDefaults) + ",\"switches\":" + names(switches) + "}";
    }

    private static String names(List<String> names) {
        return names.isEmpty() ? "[]" : "[\"" + String.join("\",\"", names) + "\"]";
    }

    /** Keycloak's environment has TEST_HARNESS=true (the test run's Keycloak). */
    static boolean testHarness(Map<String, String> env) {
        return "true".equals(env.get("TEST_HARNESS"));
    }
}
