package wifi.kc;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;

import org.keycloak.util.JsonSerialization;

/** JSON at the Java/JS border: structured values cross it as strings. */
final class Json {

    private Json() {
    }

    static String write(Object value) {
        try {
            return JsonSerialization.writeValueAsString(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> readObjects(String json) {
        try {
            return JsonSerialization.readValue(json, List.class);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> readObject(String json) {
        try {
            return JsonSerialization.readValue(json, Map.class);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
