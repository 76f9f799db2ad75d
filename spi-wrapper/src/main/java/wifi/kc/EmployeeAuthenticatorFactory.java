package wifi.kc;

import java.util.List;
import java.util.Map;

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

    private JsRuntime runtime;
    private volatile List<ProviderConfigProperty> config;

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

    /** The settings the bundle declares (kc-extension/employee-auth/settings.ts), read once. */
    @Override
    public List<ProviderConfigProperty> getConfigProperties() {
        List<ProviderConfigProperty> known = config;
        if (known == null && runtime != null) {
            known = configProperties(Json.readObjects(runtime.call("authenticatorSettings")));
            config = known;
        }
        return known == null ? List.of() : known;
    }

    /** {@code [{name, label, help, default?, secret}]} as admin-console properties; moves data only. */
    static List<ProviderConfigProperty> configProperties(List<Map<String, Object>> settings) {
        ProviderConfigurationBuilder builder = ProviderConfigurationBuilder.create();
        for (Map<String, Object> setting : settings) {
            boolean secret = Boolean.TRUE.equals(setting.get("secret"));
            builder.property().name((String) setting.get("name")).label((String) setting.get("label"))
                    .helpText((String) setting.get("help")).defaultValue(setting.get("default"))
                    .type(secret ? ProviderConfigProperty.PASSWORD : ProviderConfigProperty.STRING_TYPE).secret(secret).add();
        }
        return builder.build();
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
