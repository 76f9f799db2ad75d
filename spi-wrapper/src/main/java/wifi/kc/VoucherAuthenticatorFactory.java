package wifi.kc;

import java.util.List;

import org.keycloak.Config;
import org.keycloak.authentication.Authenticator;
import org.keycloak.authentication.AuthenticatorFactory;
import org.keycloak.models.AuthenticationExecutionModel;
import org.keycloak.models.KeycloakSession;
import org.keycloak.models.KeycloakSessionFactory;
import org.keycloak.provider.ProviderConfigProperty;

/** A printed voucher code, one step of the direct grant; all of it in the bundle (kc-extension/voucher-auth). */
public final class VoucherAuthenticatorFactory implements AuthenticatorFactory {

    static final String ID = "wifi-voucher-authenticator";

    private JsRuntime runtime;
    private volatile List<ProviderConfigProperty> config;

    @Override
    public String getId() {
        return ID;
    }

    @Override
    public String getDisplayType() {
        return "Wi-Fi voucher code";
    }

    @Override
    public String getReferenceCategory() {
        return "voucher";
    }

    @Override
    public String getHelpText() {
        return "Direct grant: a voucher code signs in as the voucher while it is valid and has a slot left.";
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

    /** The settings the bundle declares (kc-extension/voucher-auth/settings.ts), read once. */
    @Override
    public List<ProviderConfigProperty> getConfigProperties() {
        List<ProviderConfigProperty> known = config;
        if (known == null && runtime != null) {
            known = EmployeeAuthenticatorFactory.configProperties(Json.readObjects(runtime.call("voucherAuthenticatorSettings")));
            config = known;
        }
        return known == null ? List.of() : known;
    }

    @Override
    public Authenticator create(KeycloakSession session) {
        return new EmployeeAuthenticator(runtime, "authenticateVoucher");
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
