package wifi.kc;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.UUID;

import org.junit.jupiter.api.Test;

/** Keycloak commits an after-completion transaction only when the database committed, else rolls it back. */
class RememberOnCommitTest {

    @Test
    void anIdIsRememberedWhenTheTransactionCommits() {
        String window = "test/" + UUID.randomUUID();
        RememberOnCommit remember = new RememberOnCommit(window, "evt-1", 2);
        remember.begin();
        assertFalse(MemoryStore.contains(window, "evt-1"), "not before the commit");
        remember.commit();
        assertTrue(MemoryStore.contains(window, "evt-1"));
    }

    @Test
    void anIdIsNotRememberedWhenTheCommitFailsAndKeycloakRollsBack() {
        String window = "test/" + UUID.randomUUID();
        RememberOnCommit remember = new RememberOnCommit(window, "evt-1", 2);
        remember.begin();
        remember.rollback();
        assertFalse(MemoryStore.contains(window, "evt-1"));
    }
}
