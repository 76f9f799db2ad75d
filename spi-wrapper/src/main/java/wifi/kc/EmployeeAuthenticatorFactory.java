package wifi.kc;

import java.util.List;

import org.keycloak.Config;
import org.keycloak.authentication.Authenticator;
import org.keycloak.authentication.AuthenticatorFactory;
import org.keycloak.models.AuthenticationExecutionModel;
import org.keycloak.models.KeycloakSession;
import org.keycloak.models.KeycloakSessionFactory;
import org.keycloak.provider.ProviderConfigProperty;
import org.keycloak.provider.ProviderConfigurationBuilder;

/** Employee direct-grant authenticator; its settings are an authenticator config (spec 8). */
public final class EmployeeAuthenticatorFactory implements AuthenticatorFactory {

    static final String ID = "wifi-employee-authenticator";

    private static final List<ProviderConfigProperty> CONFIG = ProviderConfigurationBuilder.create()
            .property().name("hrUrl").label("HR base URL").type(ProviderConfigProperty.STRING_TYPE)
            .defaultValue("http://localhost:3001").helpText("Base URL of the HR verification service").add()
            .property().name("hrApiKey").label("HR API key").type(ProviderConfigProperty.PASSWORD)
            .secret(true).helpText("Sent as X-API-Key to HR verify").add()
            .property().name("hrTimeoutMs").label("HR timeout (ms)").type(ProviderConfigProperty.STRING_TYPE)
            .defaultValue("3000").helpText("Per-attempt timeout of HR verify").add()
            .property().name("hrAttempts").label("HR attempts").type(ProviderConfigProperty.STRING_TYPE)
            .defaultValue("2").helpText("Attempts per login (HR verify is read-only, so retry is safe)").add()
            .property().name("submitLimit").label("Failed submits per employee id").type(ProviderConfigProperty.STRING_TYPE)
            .defaultValue("5").helpText("Failed submits allowed per employee id within the window").add()
            .property().name("submitWindowSeconds").label("Submit window (s)").type(ProviderConfigProperty.STRING_TYPE)
            .defaultValue("900").helpText("Window of the failed-submit limit").add()
            .build();

    private JsRuntime runtime;

    @Override
    public String getId() {
        return ID;
    }

    @Override
    public String getDisplayType() {
        return "Wi-Fi employee verification (HR)";
    }

    @Override
    public String getReferenceCategory() {
        return "employee-hr";
    }

    @Override
    public String getHelpText() {
        return "Direct grant: verifies employeeId and citizenId with HR and signs the employee in.";
    }

    @Override
    public boolean isConfigurable() {
        return true;
    }

    @Override
    public AuthenticationExecutionModel.Requirement[] getRequirementChoices() {
        return REQUIREMENT_CHOICES;
    }

    @Override
    public boolean isUserSetupAllowed() {
        return false;
    }

    @Override
    public List<ProviderConfigProperty> getConfigProperties() {
        return CONFIG;
    }

    @Override
    public Authenticator create(KeycloakSession session) {
        return new EmployeeAuthenticator(runtime);
    }

    @Override
    public void init(Config.Scope config) {
    }

    @Override
    public void postInit(KeycloakSessionFactory factory) {
        runtime = JsRuntime.acquire();
        Thread warmUp = new Thread(runtime::warmUp, "wifi-js-warmup");
        warmUp.setDaemon(true);
        warmUp.start();
    }

    @Override
    public void close() {
        if (runtime != null) {
            JsRuntime.release();
            runtime = null;
        }
    }
}
