package wifi.kc;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
}
