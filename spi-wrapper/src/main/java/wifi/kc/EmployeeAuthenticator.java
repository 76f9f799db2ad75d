package wifi.kc;

import java.util.Map;

import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.jboss.logging.Logger;
import org.keycloak.authentication.AuthenticationFlowContext;
import org.keycloak.authentication.AuthenticationFlowError;
import org.keycloak.authentication.Authenticator;
import org.keycloak.models.KeycloakSession;
import org.keycloak.models.RealmModel;
import org.keycloak.models.UserModel;

/**
 * Delegates each direct-grant attempt to the bundle and applies the outcome it returns: the
 * employee authenticator ({@code authenticateEmployee}) and the phone one ({@code authenticatePhone}).
 */
final class EmployeeAuthenticator implements Authenticator {

    private static final Logger LOG = Logger.getLogger(EmployeeAuthenticator.class);

    private final JsRuntime runtime;
    private final String function;

    EmployeeAuthenticator(JsRuntime runtime, String function) {
        this.runtime = runtime;
        this.function = function;
    }

    @Override
    public void authenticate(AuthenticationFlowContext context) {
        AuthHostFacade host = new AuthHostFacade(context);
        Map<String, Object> outcome;
        try {
            outcome = Json.readObject(runtime.call(function, host));
        } catch (RuntimeException e) {
            // Fail closed; the message may carry request data, so only the class is logged.
            LOG.errorf("%s failed: %s", function, e.getClass().getName());
            context.failure(AuthenticationFlowError.INTERNAL_ERROR, jsonResponse(500,
                    Map.of("error", "server_error", "error_description", "Unexpected error")));
            return;
        }
        if ("success".equals(outcome.get("type"))) {
            UserModel user = host.requireUser((String) outcome.get("userId"));
            context.setUser(user);
            context.success();
            return;
        }
        String eventError = (String) outcome.get("eventError");
        if (eventError != null) {
            context.getEvent().error(eventError);
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> body = (Map<String, Object>) outcome.get("body");
        context.failure(AuthenticationFlowError.valueOf((String) outcome.get("flowError")),
                jsonResponse(((Number) outcome.get("status")).intValue(), body));
    }

    private static Response jsonResponse(int status, Map<String, Object> body) {
        return Response.status(status)
                .type(MediaType.APPLICATION_JSON_TYPE)
                .header("Cache-Control", "no-store")
                .entity(Json.write(body))
                .build();
    }

    @Override
    public void action(AuthenticationFlowContext context) {
        authenticate(context);
    }

    @Override
    public boolean requiresUser() {
        return false;
    }

    @Override
    public boolean configuredFor(KeycloakSession session, RealmModel realm, UserModel user) {
        return true;
    }

    @Override
    public void setRequiredActions(KeycloakSession session, RealmModel realm, UserModel user) {
    }

    @Override
    public void close() {
    }
}
