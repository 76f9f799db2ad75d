package wifi.kc;

import org.keycloak.models.KeycloakSessionFactory;

/** Employee direct-grant authenticator; its settings are an authenticator config (spec 8). */
public final class EmployeeAuthenticatorFactory extends ScriptAuthenticatorFactory {

    static final String ID = "wifi-employee-authenticator";

    public EmployeeAuthenticatorFactory() {
        super(ID, "Wi-Fi employee verification (HR)", "employee-hr",
                "Direct grant: verifies employeeId and citizenId with HR and signs the employee in.",
                "authenticatorSettings", "authenticateEmployee");
    }

    /** The employee sign-in is the hot path: the shared runtime is warmed once Keycloak has started. */
    @Override
    public void postInit(KeycloakSessionFactory factory) {
        super.postInit(factory);
        Thread warmUp = new Thread(runtime()::warmUp, "wifi-js-warmup");
        warmUp.setDaemon(true);
        warmUp.start();
    }
}
