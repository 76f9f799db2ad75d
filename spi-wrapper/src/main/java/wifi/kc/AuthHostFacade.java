package wifi.kc;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.graalvm.polyglot.HostAccess;
import org.jboss.logging.Logger;
import org.keycloak.authentication.AuthenticationFlowContext;
import org.keycloak.models.AuthenticatorConfigModel;
import org.keycloak.models.KeycloakSession;
import org.keycloak.models.RealmModel;
import org.keycloak.models.UserModel;

/**
 * What the employee authenticator's JS may touch (kc-extension/host/java-auth-host.ts is its
 * typed mirror). Plain strings and numbers only; structured values travel as JSON strings.
 */
public final class AuthHostFacade extends ScriptHostBasics {

    private static final Logger LOG = Logger.getLogger("wifi.kc.employee-auth");

    private final AuthenticationFlowContext context;
    private final KeycloakSession session;
    private final RealmModel realm;

    AuthHostFacade(AuthenticationFlowContext context) {
        super(LOG);
        this.context = context;
        this.session = context.getSession();
        this.realm = context.getRealm();
    }

    @HostAccess.Export
    public String formParam(String name) {
        return context.getHttpRequest().getDecodedFormParameters().getFirst(name);
    }

    @HostAccess.Export
    public String header(String name) {
        return context.getHttpRequest().getHttpHeaders().getHeaderString(name);
    }

    /** The client's address: the peer, or the forwarded one when Keycloak trusts the proxy (proxy-headers, proxy-trusted-addresses). */
    @HostAccess.Export
    public String clientAddress() {
        return context.getConnection().getRemoteAddr();
    }

    @HostAccess.Export
    public String configJson() {
        AuthenticatorConfigModel config = context.getAuthenticatorConfig();
        return Json.write(config == null || config.getConfig() == null ? Map.of() : config.getConfig());
    }

    @HostAccess.Export
    public void eventDetail(String key, String value) {
        context.getEvent().detail(key, value);
    }

    @HostAccess.Export
    public String httpPostJson(String url, String headersJson, String body, int timeoutMs) {
        return HttpFacade.postJson(url, headersJson, body, timeoutMs);
    }

    @HostAccess.Export
    public String findUsersByAttribute(String name, String value) {
        List<Map<String, Object>> users = session.users()
                .searchForUserByUserAttributeStream(realm, name, value)
                .limit(10)
                .map(UserViews::of)
                .collect(Collectors.toCollection(ArrayList::new));
        return Json.write(users);
    }

    @HostAccess.Export
    public String findUserByUsername(String username) {
        UserModel user = session.users().getUserByUsername(realm, username);
        return user == null ? null : Json.write(UserViews.of(user));
    }

    @HostAccess.Export
    public String createUser(String username) {
        UserModel user = session.users().addUser(realm, username);
        user.setEnabled(true);
        return Json.write(UserViews.of(user));
    }

    @HostAccess.Export
    public void setUserAttributes(String userId, String attributesJson) {
        UserModel user = requireUser(userId);
        Json.readObject(attributesJson).forEach((name, value) -> user.setSingleAttribute(name, String.valueOf(value)));
    }

    /** Infinispan's atomic putIfAbsent, applied at once (not at the transaction's commit). */
    @HostAccess.Export
    public boolean counterClaim(String key, int ttlSeconds) {
        return session.singleUseObjects().putIfAbsent(key, ttlSeconds);
    }

    /** Whether the entry lives (a circuit breaker reads its open mark without taking it). */
    @HostAccess.Export
    public boolean counterExists(String key) {
        return session.singleUseObjects().contains(key);
    }

    @HostAccess.Export
    public void counterRemove(String key) {
        session.singleUseObjects().remove(key);
    }

    /** A value with a lifespan in the single-use store, replacing what was there (the phone flow's code hash). */
    @HostAccess.Export
    public void valuePut(String key, int ttlSeconds, String value) {
        session.singleUseObjects().put(key, ttlSeconds, Map.of("v", value));
    }

    @HostAccess.Export
    public String valueGet(String key) {
        Map<String, String> notes = session.singleUseObjects().get(key);
        return notes == null ? null : notes.get("v");
    }

    /** Infinispan's remove returns what it removed: of two parallel takes, one gets the value. */
    @HostAccess.Export
    public String valueTake(String key) {
        Map<String, String> notes = session.singleUseObjects().remove(key);
        return notes == null ? null : notes.get("v");
    }

    @HostAccess.Export
    public String hmacSha256Hex(String key, String data) {
        try {
            javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
            mac.init(new javax.crypto.spec.SecretKeySpec(key.getBytes(java.nio.charset.StandardCharsets.UTF_8), "HmacSHA256"));
            return java.util.HexFormat.of().formatHex(mac.doFinal(data.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 unavailable", e);
        }
    }

    UserModel requireUser(String userId) {
        UserModel user = session.users().getUserById(realm, userId);
        if (user == null) {
            throw new IllegalStateException("user vanished during authentication");
        }
        return user;
    }
}
