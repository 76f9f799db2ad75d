package wifi.kc;

import org.keycloak.Config;
import org.keycloak.models.KeycloakSession;
import org.keycloak.models.KeycloakSessionFactory;
import org.keycloak.services.resource.RealmResourceProvider;
import org.keycloak.services.resource.RealmResourceProviderFactory;

/** Mounts the member-company module at /realms/{realm}/svc-admin (spec 4.7). */
public final class SvcAdminResourceProviderFactory implements RealmResourceProviderFactory {

    private JsRuntime runtime;
    /** The decision models folder: run-time configuration of this Keycloak (env DMN_DIR), not realm data. */
    private String modelsDir;

    @Override
    public String getId() {
        return "svc-admin";
    }

    @Override
    public RealmResourceProvider create(KeycloakSession session) {
        JsRuntime current = runtime;
        String models = modelsDir;
        return new RealmResourceProvider() {
            @Override
            public Object getResource() {
                return new SvcAdminResource(current, session, models);
            }

            @Override
            public void close() {
            }
        };
    }

    @Override
    public void init(Config.Scope config) {
        modelsDir = System.getenv("DMN_DIR");
    }

    @Override
    public void postInit(KeycloakSessionFactory factory) {
        runtime = JsRuntime.acquire();
        // The extension's own start check; a production start with development
        // secrets or test switches stops here, with one line naming them (never their values).
        String refusal = runtime.call("startCheck", StartFacts.json());
        if (!refusal.isEmpty()) {
            throw new IllegalStateException(refusal);
        }
    }

    @Override
    public void close() {
        if (runtime != null) {
            JsRuntime.release();
            runtime = null;
        }
    }
}
