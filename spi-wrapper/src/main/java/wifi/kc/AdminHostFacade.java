package wifi.kc;

import org.graalvm.polyglot.HostAccess;

/**
 * What the svc-admin JS may touch for one request (kc-extension/host/java-admin-host.ts).
 * The admin issue widens this facade; today it carries the request only.
 */
public final class AdminHostFacade {

    private final String method;
    private final String path;
    private final String body;
    private final jakarta.ws.rs.core.HttpHeaders headers;

    AdminHostFacade(String method, String path, String body, jakarta.ws.rs.core.HttpHeaders headers) {
        this.method = method;
        this.path = path;
        this.body = body;
        this.headers = headers;
    }

    @HostAccess.Export
    public String method() {
        return method;
    }

    @HostAccess.Export
    public String path() {
        return path;
    }

    @HostAccess.Export
    public String body() {
        return body;
    }

    @HostAccess.Export
    public String header(String name) {
        return headers.getHeaderString(name);
    }
}
