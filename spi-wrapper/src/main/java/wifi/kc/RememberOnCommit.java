package wifi.kc;

import org.keycloak.models.AbstractKeycloakTransaction;
import org.keycloak.models.KeycloakSessionFactory;
import org.keycloak.models.utils.KeycloakModelUtils;

/**
 * Puts a key in Keycloak's cluster-wide single-use store (SingleUseObjectProvider: every node of
 * the cluster sees it) when enlisted after completion of a Keycloak transaction: Keycloak commits
 * it only once every main transaction (the database) has committed, and rolls it back, doing
 * nothing, when one of them fails. The key is written in a short transaction of its own, because
 * the request's is over by then.
 */
final class RememberOnCommit extends AbstractKeycloakTransaction {

    /** Writes a key with its lifespan; the real one is the store, tests give their own. */
    interface Store {
        void remember(String key, long ttlSeconds);
    }

    private final Store store;
    private final String key;
    private final long ttlSeconds;

    RememberOnCommit(KeycloakSessionFactory factory, String key, long ttlSeconds) {
        this((k, ttl) -> KeycloakModelUtils.runJobInTransaction(factory, job -> job.singleUseObjects().putIfAbsent(k, ttl)), key, ttlSeconds);
    }

    RememberOnCommit(Store store, String key, long ttlSeconds) {
        this.store = store;
        this.key = key;
        this.ttlSeconds = ttlSeconds;
    }

    @Override
    protected void commitImpl() {
        store.remember(key, ttlSeconds);
    }

    @Override
    protected void rollbackImpl() {
    }
}
