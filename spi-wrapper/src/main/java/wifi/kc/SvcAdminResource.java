package wifi.kc;

import java.util.Map;

import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.jboss.logging.Logger;

/** {idp_url}/realms/{realm}/svc-admin/*: every request is handed to the bundle's router. */
public final class SvcAdminResource {

    private static final Logger LOG = Logger.getLogger(SvcAdminResource.class);

    private final JsRuntime runtime;

    @Context
    HttpHeaders headers;

    SvcAdminResource(JsRuntime runtime) {
        this.runtime = runtime;
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
    public Response post(@PathParam("path") String path, String body) {
        return dispatch("POST", path, body);
    }

    @PUT
    @Path("{path: .*}")
    @Consumes(MediaType.WILDCARD)
    public Response put(@PathParam("path") String path, String body) {
        return dispatch("PUT", path, body);
    }

    @DELETE
    @Path("{path: .*}")
    public Response delete(@PathParam("path") String path) {
        return dispatch("DELETE", path, null);
    }

    private Response dispatch(String method, String path, String body) {
        Map<String, Object> reply;
        try {
            reply = Json.readObject(runtime.call("handleAdmin", new AdminHostFacade(method, "/" + path, body, headers)));
        } catch (RuntimeException e) {
            LOG.errorf("svc-admin handler failed: %s", e.getClass().getName());
            return Response.status(500).type(MediaType.APPLICATION_JSON_TYPE)
                    .entity("{\"code\":\"INTERNAL_ERROR\",\"message\":\"Unexpected error\"}").build();
        }
        Response.ResponseBuilder response = Response.status(((Number) reply.get("status")).intValue())
                .type((String) reply.get("contentType"))
                .entity(reply.get("body"));
        @SuppressWarnings("unchecked")
        Map<String, Object> extra = (Map<String, Object>) reply.getOrDefault("headers", Map.of());
        extra.forEach((name, value) -> response.header(name, value));
        return response.build();
    }
}
