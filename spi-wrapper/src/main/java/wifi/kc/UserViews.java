package wifi.kc;

import java.util.LinkedHashMap;
import java.util.Map;

import org.keycloak.models.UserModel;

/**
 * The one JSON shape of a user handed to the scripts (UserView of host/auth-host.ts, AdminUser of
 * host/admin-host.ts): id, username, email, enabled and every attribute with its first value. The
 * scripts pick the attributes they need; Java keeps no list of them.
 */
final class UserViews {

    private UserViews() {
    }

    static Map<String, Object> of(UserModel user) {
        Map<String, Object> attributes = new LinkedHashMap<>();
        user.getAttributes().forEach((name, values) -> attributes.put(name, values == null || values.isEmpty() ? null : values.get(0)));
        return of(user.getId(), user.getUsername(), user.getEmail(), user.isEnabled(), attributes);
    }

    static Map<String, Object> of(String id, String username, String email, boolean enabled, Map<String, Object> attributes) {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("id", id);
        view.put("username", username);
        view.put("email", email);
        view.put("enabled", enabled);
        view.put("attributes", attributes);
        return view;
    }
}
