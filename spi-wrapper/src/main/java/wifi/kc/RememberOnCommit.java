package wifi.kc;

import org.keycloak.models.AbstractKeycloakTransaction;

/**
 * Puts an id in a MemoryStore window when enlisted after completion of a Keycloak transaction:
 * Keycloak commits it only once every main transaction (the database) has committed, and rolls
 * it back, doing nothing, when one of them fails.
 */
final class RememberOnCommit extends AbstractKeycloakTransaction {

    private final String window;
    private final String id;
    private final int capacity;

    RememberOnCommit(String window, String id, int capacity) {
        this.window = window;
        this.id = id;
        this.capacity = capacity;
    }

    @Override
    protected void commitImpl() {
        MemoryStore.remember(window, id, capacity);
    }

    @Override
    protected void rollbackImpl() {
    }
}
