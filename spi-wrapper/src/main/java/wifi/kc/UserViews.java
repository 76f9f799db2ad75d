package wifi.kc;

import java.util.LinkedHashMap;
import java.util.Map;

import org.keycloak.models.UserModel;
import org.keycloak.models.credential.PasswordCredentialModel;

/**
 * The one JSON shape of a user handed to the scripts (UserView of host/auth-host.ts, AdminUser of
 * host/admin-host.ts): id, username, email, whether the email is verified, enabled, whether the
 * user has a password of its own (an account someone can sign in to without HR, which neither the
 * import nor the employee flow may adopt) and every attribute with its first value. The scripts
 * pick the attributes they need; Java keeps no list of them.
 */
final class UserViews {

    private UserViews() {
    }

    static Map<String, Object> of(UserModel user) {
        Map<String, Object> attributes = new LinkedHashMap<>();
        user.getAttributes().forEach((name, values) -> attributes.put(name, values == null || values.isEmpty() ? null : values.get(0)));
        boolean hasPassword = user.credentialManager().isConfiguredFor(PasswordCredentialModel.TYPE);
        return of(user.getId(), user.getUsername(), user.getEmail(), user.isEmailVerified(), user.isEnabled(), hasPassword, attributes);
    }

    static Map<String, Object> of(String id, String username, String email, boolean emailVerified, boolean enabled, boolean hasPassword,
            Map<String, Object> attributes) {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("id", id);
        view.put("username", username);
        view.put("email", email);
        view.put("emailVerified", emailVerified);
        view.put("enabled", enabled);
        view.put("hasPassword", hasPassword);
        view.put("attributes", attributes);
        return view;
    }
}
