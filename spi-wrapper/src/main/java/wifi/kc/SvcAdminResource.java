package wifi.kc;

import java.util.Map;

import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.jboss.logging.Logger;
import org.keycloak.headers.SecurityHeadersProvider;
import org.keycloak.models.KeycloakSession;
import org.keycloak.services.managers.AppAuthManager;
import org.keycloak.services.managers.AuthenticationManager;

/**
 * {idp_url}/realms/{realm}/svc-admin/*: every request (raw body bytes included) is handed to
 * the bundle's router together with the bearer token as verified against this realm (null when
 * absent, bad, expired or from another realm). The reply may ask for the request's transaction
 * to be rolled back.
 */
public final class SvcAdminResource {

    private static final Logger LOG = Logger.getLogger(SvcAdminResource.class);

    private final JsRuntime runtime;
    private final KeycloakSession session;
    private final String modelsDir;

    SvcAdminResource(JsRuntime runtime, KeycloakSession session, String modelsDir) {
        this.runtime = runtime;
        this.session = session;
        this.modelsDir = modelsDir;
    }

    @GET
    public Response root() {
        return dispatch("GET", "", null);
    }

    @GET
    @Path("{path: .+}")
    public Response get(@PathParam("path") String path) {
        return dispatch("GET", path, null);
    }

    @POST
    @Path("{path: .*}")
    @Consumes(MediaType.WILDCARD)
    public Response post(@PathParam("path") String path, byte[] body) {
        return dispatch("POST", path, body);
    }

    @PUT
    @Path("{path: .*}")
    @Consumes(MediaType.WILDCARD)
    public Response put(@PathParam("path") String path, byte[] body) {
        return dispatch("PUT", path, body);
    }

    @DELETE
    @Path("{path: .*}")
    public Response delete(@PathParam("path") String path) {
        return dispatch("DELETE", path, null);
    }

    private AuthenticationManager.AuthResult verifiedToken() {
        try {
            return new AppAuthManager.BearerTokenAuthenticator(session).authenticate();
        } catch (RuntimeException e) {
            return null;
        }
    }

    private Response dispatch(String method, String path, byte[] body) {
        Map<String, Object> reply;
        try {
            AdminHostFacade facade = new AdminHostFacade(
                    new AdminHostFacade.AdminRequest(method, "/" + path, body,
                            session.getContext().getRequestHeaders(), session.getContext().getUri().getQueryParameters()),
                    session, verifiedToken(), new ModelFiles(modelsDir));
            String answer = runtime.call("handleAdmin", facade);
            if (answer.isEmpty()) {
                answer = facade.completedReply();
                if (answer == null) {
                    throw new IllegalStateException("asynchronous svc-admin reply did not complete");
                }
            }
            reply = Json.readObject(answer);
        } catch (RuntimeException e) {
            LOG.errorf("svc-admin handler failed: %s", e.getClass().getName());
            reply = Json.readObject(InternalErrorReply.of(runtime::call,
                    session.getContext().getRequestHeaders().getHeaderString("X-Correlation-ID")));
        }
        if (Boolean.TRUE.equals(reply.get("rollback"))) {
            session.getTransactionManager().setRollbackOnly();
        }
        // The script sent a complete set of security headers (its own Content-Security-Policy):
        // Keycloak's realm defaults would overwrite them.
        if (Boolean.TRUE.equals(reply.get("ownSecurityHeaders"))) {
            session.getProvider(SecurityHeadersProvider.class).options().skipHeaders();
        }
        // An asset reply names a GUI file the script chose; only its bytes come from here.
        Object asset = reply.get("asset");
        Response.ResponseBuilder response = Response.status(((Number) reply.get("status")).intValue())
                .type((String) reply.get("contentType"))
                .entity(asset instanceof String name ? GuiAssets.bytes(name) : reply.get("body"));
        @SuppressWarnings("unchecked")
        Map<String, Object> extra = (Map<String, Object>) reply.getOrDefault("headers", Map.of());
        extra.forEach((name, value) -> response.header(name, value));
        return response.build();
    }
}
