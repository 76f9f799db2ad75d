package wifi.kc;

import org.jboss.logging.Logger;
import org.keycloak.Config;
import org.keycloak.models.KeycloakSession;
import org.keycloak.models.KeycloakSessionFactory;
import org.keycloak.models.utils.PostMigrationEvent;
import org.keycloak.services.resource.RealmResourceProvider;
import org.keycloak.services.resource.RealmResourceProviderFactory;

/** Mounts the member-company module at /realms/{realm}/svc-admin (spec 4.7). */
public final class SvcAdminResourceProviderFactory implements RealmResourceProviderFactory {

    private static final Logger LOG = Logger.getLogger(SvcAdminResourceProviderFactory.class);

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
        // The extension's own start check, once the realms are imported and migrated (Keycloak
        // publishes PostMigrationEvent inside its start-up, before it serves): a production start
        // with development secrets, demo credentials or test switches stops there, with one line
        // naming them (never their values).
        JsRuntime current = runtime;
        factory.register(event -> {
            if (event instanceof PostMigrationEvent) {
                String refusal = current.call("startCheck", StartFacts.json(factory));
                if (!refusal.isEmpty()) {
                    // Logged here: Keycloak reports a start that failed this late as "Failed to start
                    // server" only, without the cause's message.
                    LOG.error(refusal);
                    throw new IllegalStateException(refusal);
                }
            }
        });
    }

    @Override
    public void close() {
        if (runtime != null) {
            JsRuntime.release();
            runtime = null;
        }
    }
}
