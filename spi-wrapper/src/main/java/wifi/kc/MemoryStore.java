package wifi.kc;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Node-local memory shared by all JS Contexts (each Context has its own globals): bounded rings
 * of JSON entries keyed by name (the event log). Lost on restart (spec 4.7 rule 11). Sizes are
 * chosen by the caller. Replay windows are not here: they are cluster-wide (RememberOnCommit).
 */
final class MemoryStore {

    private static final Map<String, Deque<String>> RINGS = new ConcurrentHashMap<>();

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
}
