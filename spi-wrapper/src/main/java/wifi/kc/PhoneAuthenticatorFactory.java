package wifi.kc;

import java.util.List;

import org.keycloak.Config;
import org.keycloak.authentication.Authenticator;
import org.keycloak.authentication.AuthenticatorFactory;
import org.keycloak.models.AuthenticationExecutionModel;
import org.keycloak.models.KeycloakSession;
import org.keycloak.models.KeycloakSessionFactory;
import org.keycloak.provider.ProviderConfigProperty;

/** Phone number + one-time SMS code, two steps of the direct grant; all of it in the bundle (kc-extension/phone-auth). */
public final class PhoneAuthenticatorFactory implements AuthenticatorFactory {

    static final String ID = "wifi-phone-authenticator";

    private JsRuntime runtime;
    private volatile List<ProviderConfigProperty> config;

    @Override
    public String getId() {
        return ID;
    }

    @Override
    public String getDisplayType() {
        return "Wi-Fi phone number + SMS code";
    }

    @Override
    public String getReferenceCategory() {
        return "phone-sms";
    }

    @Override
    public String getHelpText() {
        return "Direct grant: phone alone sends a one-time code by SMS; phone and code sign the customer in.";
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

    /** The settings the bundle declares (kc-extension/phone-auth/settings.ts), read once. */
    @Override
    public List<ProviderConfigProperty> getConfigProperties() {
        List<ProviderConfigProperty> known = config;
        if (known == null && runtime != null) {
            known = EmployeeAuthenticatorFactory.configProperties(Json.readObjects(runtime.call("phoneAuthenticatorSettings")));
            config = known;
        }
        return known == null ? List.of() : known;
    }

    @Override
    public Authenticator create(KeycloakSession session) {
        return new EmployeeAuthenticator(runtime, "authenticatePhone");
    }

    @Override
    public void init(Config.Scope config) {
    }

    @Override
    public void postInit(KeycloakSessionFactory factory) {
        runtime = JsRuntime.acquire();
    }

    @Override
    public void close() {
        if (runtime != null) {
            JsRuntime.release();
            runtime = null;
        }
    }
}
