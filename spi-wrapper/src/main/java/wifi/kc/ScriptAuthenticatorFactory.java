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

/**
 * Keycloak's registration of a direct-grant authenticator whose whole behaviour is in the bundle:
 * each subclass names its id, texts, the bundle function that declares its settings and the one
 * that authenticates. Moves data only.
 */
abstract class ScriptAuthenticatorFactory implements AuthenticatorFactory {

    private final String id;
    private final String displayType;
    private final String referenceCategory;
    private final String helpText;
    private final String settingsFunction;
    private final String authenticateFunction;
    private JsRuntime runtime;
    private volatile List<ProviderConfigProperty> config;

    ScriptAuthenticatorFactory(String id, String displayType, String referenceCategory, String helpText, String settingsFunction,
            String authenticateFunction) {
        this.id = id;
        this.displayType = displayType;
        this.referenceCategory = referenceCategory;
        this.helpText = helpText;
        this.settingsFunction = settingsFunction;
        this.authenticateFunction = authenticateFunction;
    }

    @Override
    public final String getId() {
        return id;
    }

    @Override
    public final String getDisplayType() {
        return displayType;
    }

    @Override
    public final String getReferenceCategory() {
        return referenceCategory;
    }

    @Override
    public final String getHelpText() {
        return helpText;
    }

    @Override
    public final boolean isConfigurable() {
        return true;
    }

    @Override
    public final AuthenticationExecutionModel.Requirement[] getRequirementChoices() {
        return REQUIREMENT_CHOICES;
    }

    @Override
    public final boolean isUserSetupAllowed() {
        return false;
    }

    /** The settings the bundle declares, read once. */
    @Override
    public final List<ProviderConfigProperty> getConfigProperties() {
        List<ProviderConfigProperty> known = config;
        if (known == null && runtime != null) {
            known = configProperties(Json.readObjects(runtime.call(settingsFunction)));
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
    public final Authenticator create(KeycloakSession session) {
        return new EmployeeAuthenticator(runtime, authenticateFunction);
    }

    @Override
    public final void init(Config.Scope config) {
    }

    @Override
    public void postInit(KeycloakSessionFactory factory) {
        runtime = JsRuntime.acquire();
    }

    /** For a subclass that warms the shared runtime once it holds it. */
    final JsRuntime runtime() {
        return runtime;
    }

    @Override
    public final void close() {
        if (runtime != null) {
            JsRuntime.release();
            runtime = null;
        }
    }
}
