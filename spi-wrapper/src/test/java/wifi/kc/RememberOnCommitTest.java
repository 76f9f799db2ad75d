package wifi.kc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** Keycloak commits an after-completion transaction only when the database committed, else rolls it back. */
class RememberOnCommitTest {

    @Test
    void aKeyIsRememberedWithItsLifespanWhenTheTransactionCommits() {
        Map<String, Long> store = new HashMap<>();
        RememberOnCommit remember = new RememberOnCommit(store::put, "evt-1", 660);
        remember.begin();
        assertTrue(store.isEmpty(), "not before the commit");
        remember.commit();
        assertEquals(Map.of("evt-1", 660L), store);
    }

    @Test
    void aKeyIsNotRememberedWhenTheCommitFailsAndKeycloakRollsBack() {
        Map<String, Long> store = new HashMap<>();
        RememberOnCommit remember = new RememberOnCommit(store::put, "evt-1", 660);
        remember.begin();
        remember.rollback();
        assertTrue(store.isEmpty());
    }
}
