package wifi.kc;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Node-local memory shared by all JS Contexts (each Context has its own globals): bounded rings
 * of JSON entries and bounded windows of seen ids, keyed by name. Lost on restart (spec 4.7
 * rule 11, spec 6). Sizes are chosen by the caller.
 */
final class MemoryStore {

    private static final Map<String, Deque<String>> RINGS = new ConcurrentHashMap<>();
    private static final Map<String, IdWindow> WINDOWS = new ConcurrentHashMap<>();

    private MemoryStore() {
    }

    static void append(String ring, String entry, int capacity) {
        Deque<String> entries = RINGS.computeIfAbsent(ring, name -> new ArrayDeque<>());
        synchronized (entries) {
            entries.addFirst(entry);
            while (entries.size() > capacity) {
                entries.removeLast();
            }
        }
    }

    /** Newest first. */
    static List<String> read(String ring, int limit) {
        Deque<String> entries = RINGS.get(ring);
        List<String> out = new ArrayList<>();
        if (entries == null) {
            return out;
        }
        synchronized (entries) {
            Iterator<String> it = entries.iterator();
            while (it.hasNext() && out.size() < limit) {
                out.add(it.next());
            }
        }
        return out;
    }

    /** True when the id was not in the window (and is now remembered). */
    static boolean remember(String window, String id, int capacity) {
        return WINDOWS.computeIfAbsent(window, name -> new IdWindow()).add(id, capacity);
    }

    static boolean contains(String window, String id) {
        IdWindow ids = WINDOWS.get(window);
        return ids != null && ids.contains(id);
    }

    private static final class IdWindow {
        private final Deque<String> order = new ArrayDeque<>();
        private final Set<String> ids = new HashSet<>();

        synchronized boolean add(String id, int capacity) {
            if (!ids.add(id)) {
                return false;
            }
            order.addLast(id);
            while (order.size() > capacity) {
                ids.remove(order.removeFirst());
            }
            return true;
        }

        synchronized boolean contains(String id) {
            return ids.contains(id);
        }
    }
}
