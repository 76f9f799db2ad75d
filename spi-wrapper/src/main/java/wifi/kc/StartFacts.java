package wifi.kc;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.keycloak.common.util.Environment;
import org.keycloak.models.KeycloakSessionFactory;
import org.keycloak.models.utils.KeycloakModelUtils;

/**
 * What the extension's start check (kc-extension/start-check.ts) judges, gathered once at
 * Keycloak's start: whether Keycloak runs {@code start-dev} (the profile
 * {@code dev} Keycloak sets for it; {@code start} runs the production profile), which of the
 * extension's own settings still fall back to the development values shipped here, which test
 * switches are on, and what the realms still hold of the development data (RealmFacts). Names
 * only: no setting's or secret's value leaves this class.
 */
final class StartFacts {

    private StartFacts() {
    }

    /** The facts of this start; the realms are read only for a production start (start-dev keeps its demo data). */
    static String json(KeycloakSessionFactory factory) {
        boolean devMode = Environment.isDevMode();
        RealmFacts realms = devMode ? RealmFacts.none() : KeycloakModelUtils.runJobInTransactionWithResult(factory, RealmFacts::of);
        return json(devMode, System.getenv(), realms);
    }

    static String json(boolean devMode, Map<String, String> env, RealmFacts realms) {
        List<String> developmentDefaults = new ArrayList<>();
        if (SecretSealer.isDevelopmentKey(env.get(SecretSealer.SETTING))) {
            developmentDefaults.add(SecretSealer.SETTING);
        }
        if (AdminHostFacade.isDevelopmentSessionKey(env.get(AdminHostFacade.SESSION_KEY_SETTING))) {
            developmentDefaults.add(AdminHostFacade.SESSION_KEY_SETTING);
        }
        if (ScriptHostBasics.isDevelopmentVoucherKey(env.get(ScriptHostBasics.VOUCHER_KEY_SETTING))) {
            developmentDefaults.add(ScriptHostBasics.VOUCHER_KEY_SETTING);
        }
        for (AdminHostFacade.PlatformService service : AdminHostFacade.PlatformService.values()) {
            if (service != AdminHostFacade.PlatformService.SESSION && service.isDevelopmentKey(env.get(service.keySetting))) {
                developmentDefaults.add(service.keySetting);
            }
        }
        List<String> switches = new ArrayList<>();
        if (testHarness(env)) {
            switches.add("TEST_HARNESS");
        }
        // Written by hand: the unit test runs without Keycloak's JSON module on the class path. Realm,
        // client and user names may hold quotes or backslashes: those are escaped.
        return "{\"devMode\":" + devMode + ",\"developmentDefaults\":" + names(developmentDefaults) + ",\"switches\":" + names(switches)
                + ",\"developmentClientSecrets\":" + names(realms.developmentClientSecrets) + ",\"demoPasswords\":" + names(realms.demoPasswords)
                + ",\"adminCliPasswordGrants\":" + names(realms.adminCliPasswordGrants) + "}";
    }

    private static String names(List<String> names) {
        List<String> quoted = new ArrayList<>();
        names.forEach(name -> quoted.add("\"" + name.replace("\\", "\\\\").replace("\"", "\\\"") + "\""));
        return "[" + String.join(",", quoted) + "]";
    }

    /** Keycloak's environment has TEST_HARNESS=true (the test run's Keycloak). */
    static boolean testHarness(Map<String, String> env) {
        return "true".equals(env.get("TEST_HARNESS"));
    }
}
