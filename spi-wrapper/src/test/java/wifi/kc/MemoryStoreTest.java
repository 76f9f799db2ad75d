package wifi.kc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;

class MemoryStoreTest {

    // The store is static and shared: every test uses names of its own.
    private static String name() {
        return "test/" + UUID.randomUUID();
    }

    @Test
    void aRingKeepsItsCapacityNewestFirst() {
        String ring = name();
        for (int i = 1; i <= 5; i++) {
            MemoryStore.append(ring, "{\"n\":" + i + "}", 3);
        }
        assertEquals(List.of("{\"n\":5}", "{\"n\":4}", "{\"n\":3}"), MemoryStore.read(ring, 10));
        assertEquals(List.of("{\"n\":5}", "{\"n\":4}"), MemoryStore.read(ring, 2));
        assertEquals(List.of(), MemoryStore.read(name(), 10));
    }

    @Test
    void anIdIsNewOnlyOnceWhileInTheWindow() {
        String window = name();
        assertTrue(MemoryStore.remember(window, "evt-1", 2));
        assertFalse(MemoryStore.remember(window, "evt-1", 2));
        assertTrue(MemoryStore.remember(window, "evt-2", 2));
        assertFalse(MemoryStore.remember(window, "evt-1", 2));
    }

    @Test
    void theOldestIdLeavesAFullWindow() {
        String window = name();
        MemoryStore.remember(window, "evt-1", 2);
        MemoryStore.remember(window, "evt-2", 2);
        MemoryStore.remember(window, "evt-3", 2);
        assertTrue(MemoryStore.remember(window, "evt-1", 2));
        assertFalse(MemoryStore.remember(window, "evt-3", 2));
    }

    @Test
    void containsAnswersWithoutRemembering() {
        String window = name();
        assertFalse(MemoryStore.contains(window, "evt-1"));
        MemoryStore.remember(window, "evt-1", 2);
        assertTrue(MemoryStore.contains(window, "evt-1"));
        assertFalse(MemoryStore.contains(window, "evt-2"));
        assertFalse(MemoryStore.contains(window, "evt-2"));
    }
}
