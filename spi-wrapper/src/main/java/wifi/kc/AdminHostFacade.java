package wifi.kc;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import jakarta.persistence.EntityManager;
import org.graalvm.polyglot.HostAccess;
import org.jboss.logging.Logger;
import org.keycloak.models.KeycloakSession;
import org.keycloak.models.KeycloakSessionFactory;
import org.keycloak.models.RealmModel;
import org.keycloak.models.RoleModel;
import org.keycloak.models.UserModel;
import org.keycloak.models.UserSessionModel;
import org.keycloak.models.utils.KeycloakModelUtils;
import org.keycloak.provider.Provider;
import org.keycloak.representations.AccessToken;
import org.keycloak.services.managers.AuthenticationManager;

/**
 * What the svc-admin JS may touch for one request (kc-extension/host/java-admin-host.ts is its
 * typed mirror): the request as received, the verified token's realm and roles, and typed
 * access to Keycloak. No rule of the spec is decided here. Structured values cross as JSON.
 */
public final class AdminHostFacade extends ScriptHostBasics {

    private static final Logger LOG = Logger.getLogger("wifi.kc.svc-admin");
    /** Realm attributes that hold the module's state start with this. */
    private static final String STORE_PREFIX = "svc-admin.";
    /** Keys of the cluster-wide single-use store start with this (Keycloak's own keys never do). */
    private static final String ONCE_PREFIX = "wifi.svc-admin:";
    static final String SESSION_KEY_SETTING = "SESSION_API_KEY";
    /** What an unset SESSION_API_KEY falls back to, and the shared key of old (both refused by a production start). */
    private static final List<String> DEVELOPMENT_SESSION_KEYS = List.of("dev-session-keycloak-key", "dev-session-key");

    private final String method;
    private final String path;
    private final byte[] body;
    private final jakarta.ws.rs.core.HttpHeaders headers;
    private final jakarta.ws.rs.core.MultivaluedMap<String, String> query;
    private final AccessToken token;
    /** The token's user as Keycloak found it (a lightweight token, as admin-cli's, names none itself). */
    private final UserModel tokenUser;
    private final KeycloakSession session;
    private final RealmModel realm;
    private final ModelFiles models;

    AdminHostFacade(AdminRequest request, KeycloakSession session, AuthenticationManager.AuthResult auth, ModelFiles models) {
        super(LOG);
        this.method = request.method();
        this.path = request.path();
        this.body = request.body();
        this.headers = request.headers();
        this.query = request.query();
        this.token = auth == null ? null : auth.token();
        this.tokenUser = auth == null ? null : auth.user();
        this.session = session;
        this.realm = session.getContext().getRealm();
        this.models = models;
    }

    /** What the resource hands over for one request. */
    record AdminRequest(String method, String path, byte[] body, jakarta.ws.rs.core.HttpHeaders headers,
            jakarta.ws.rs.core.MultivaluedMap<String, String> query) {
    }

    // --- request ---

    @HostAccess.Export
    public String method() {
        return method;
    }

    @HostAccess.Export
    public String path() {
        return path;
    }

    @HostAccess.Export
    public String query(String name) {
        return query.getFirst(name);
    }

    @HostAccess.Export
    public String header(String name) {
        return headers.getHeaderString(name);
    }

    /** The body decoded as UTF-8 (null when none). */
    @HostAccess.Export
    public String body() {
        return body == null ? null : new String(body, StandardCharsets.UTF_8);
    }

    /** The bearer token verified against this realm, or null: {realm, subject, username, clientId}. */
    @HostAccess.Export
    public String authJson() {
        if (token == null || tokenUser == null) {
            return null;
        }
        Map<String, Object> auth = new LinkedHashMap<>();
        String issuer = token.getIssuer();
        auth.put("realm", issuer == null ? null : issuer.substring(issuer.lastIndexOf('/') + 1));
        auth.put("subject", tokenUser.getId());
        auth.put("username", tokenUser.getUsername());
        auth.put("clientId", token.getIssuedFor());
        return Json.write(auth);
    }

    @HostAccess.Export
    public String realmName() {
        return realm.getName();
    }

    @HostAccess.Export
    public boolean realmEmailAsUsername() {
        return realm.isRegistrationEmailAsUsername();
    }

    // --- realm storage (realm attributes, part of the realm and its export) ---

    @HostAccess.Export
    public String storeGet(String key) {
        return realm.getAttribute(STORE_PREFIX + key);
    }

    @HostAccess.Export
    public void storePut(String key, String value) {
        realm.setAttribute(STORE_PREFIX + key, value);
    }

    /**
     * Stores the value unless the key holds one, in a transaction of its own committed at once,
     * and answers the value that holds. Two requests claiming together: the realm attribute's
     * primary key refuses the second insert, which then reads the first one's value.
     */
    @HostAccess.Export
    public String storeClaim(String key, String value) {
        String name = STORE_PREFIX + key;
        String realmId = realm.getId();
        KeycloakSessionFactory factory = session.getKeycloakSessionFactory();
        try {
            return KeycloakModelUtils.runJobInTransactionWithResult(factory, job -> {
                RealmModel own = job.realms().getRealm(realmId);
                String current = own.getAttribute(name);
                if (current != null) {
                    return current;
                }
                own.setAttribute(name, value);
                return value;
            });
        } catch (RuntimeException lost) {
            LOG.debugf("svc-admin store claim of %s lost to another request: %s", key, lost.getClass().getName());
            String winner = KeycloakModelUtils.runJobInTransactionWithResult(factory, job -> job.realms().getRealm(realmId).getAttribute(name));
            if (winner == null) {
                throw lost;
            }
            return winner;
        }
    }

    @HostAccess.Export
    public void storeRemove(String key) {
        realm.removeAttribute(STORE_PREFIX + key);
    }

    /** JSON object of every stored key starting with the prefix (prefix removed from nothing). */
    @HostAccess.Export
    public String storeList(String keyPrefix) {
        String full = STORE_PREFIX + keyPrefix;
        Map<String, String> out = new LinkedHashMap<>();
        realm.getAttributes().forEach((name, value) -> {
            if (name.startsWith(full)) {
                out.put(name.substring(STORE_PREFIX.length()), value);
            }
        });
        return Json.write(out);
    }

    // --- secrets (SecretSealer) ---

    @HostAccess.Export
    public String seal(String plain) {
        return SecretSealer.sealText(plain);
    }

    @HostAccess.Export
    public String newSealedKey() {
        return SecretSealer.sealRandom(32);
    }

    /** Base64 HMAC-SHA256 keyed by a sealed value over the UTF-8 text; null when the key is unreadable. */
    @HostAccess.Export
    public String hmac(String sealedKey, String text) {
        return SecretSealer.hmac(sealedKey, text.getBytes(StandardCharsets.UTF_8));
    }

    /** The same over {@code prefix} followed by the raw body bytes as received. */
    @HostAccess.Export
    public String hmacOverBody(String sealedKey, String prefix) {
        return SecretSealer.hmac(sealedKey, prefix.getBytes(StandardCharsets.UTF_8), body == null ? new byte[0] : body);
    }

    static boolean isDevelopmentSessionKey(String configured) {
        return configured == null || configured.isEmpty() || DEVELOPMENT_SESSION_KEYS.contains(configured);
    }

    /** Keycloak's environment has TEST_HARNESS=true; a production start refuses it (StartFacts). */
    @HostAccess.Export
    public boolean testHarness() {
        return StartFacts.testHarness(System.getenv());
    }

    // --- node memory (MemoryStore), per realm ---

    @HostAccess.Export
    public void ringAppend(String ring, String entryJson, int capacity) {
        MemoryStore.append(realm.getId() + "/" + ring, entryJson, capacity);
    }

    @HostAccess.Export
    public String ringRead(String ring, int limit) {
        return "[" + String.join(",", MemoryStore.read(realm.getId() + "/" + ring, limit)) + "]";
    }

    // --- cluster-wide single-use keys (Keycloak's SingleUseObjectProvider), per realm ---

    /** True while the key is remembered by any node of the cluster. */
    @HostAccess.Export
    public boolean onceSeen(String key) {
        return session.singleUseObjects().contains(onceKey(key));
    }

    /** Remembers the key for ttlSeconds after the request's transaction commits (Keycloak's after-completion phase). */
    @HostAccess.Export
    public void onceRememberOnCommit(String key, int ttlSeconds) {
        session.getTransactionManager().enlistAfterCompletion(new RememberOnCommit(session.getKeycloakSessionFactory(), onceKey(key), ttlSeconds));
    }

    private String onceKey(String key) {
        return ONCE_PREFIX + realm.getId() + ":" + key;
    }

    // --- users ---

    @HostAccess.Export
    public String findUsersByAttribute(String name, String value, int max) {
        return Json.write(session.users().searchForUserByUserAttributeStream(realm, name, value)
                .limit(max).map(UserViews::of).collect(Collectors.toCollection(ArrayList::new)));
    }

    /** Bulk look-up of the member import: JSON {attributes: {name: [values]}, usernames, emails} in, user views out. */
    @HostAccess.Export
    public String findUsersByKeys(String keysJson) {
        return Json.write(userLookup().findByKeys(Json.readObject(keysJson)));
    }

    private UserLookup userLookup() {
        return new UserLookup(entityManager(), realm.getId());
    }

    /**
     * The request's EntityManager from Keycloak's JPA connection provider. That interface lives in
     * keycloak-model-jpa, which Maven Central cannot resolve for the pinned version (its parent
     * pom keycloak-model-pom is not published there), so it is looked up by name on Keycloak's
     * class path, where it always is; EntityManager itself comes from jakarta.persistence-api.
     */
    @SuppressWarnings("unchecked")
    private EntityManager entityManager() {
        try {
            Class<? extends Provider> type = (Class<? extends Provider>) Class.forName(
                    "org.keycloak.connections.jpa.JpaConnectionProvider", true, AdminHostFacade.class.getClassLoader());
            return (EntityManager) type.getMethod("getEntityManager").invoke(session.getProvider(type));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("Keycloak's JPA connection provider is not available", e);
        }
    }

    @HostAccess.Export
    public String createUser(String username, String email, String attributesJson) {
        UserModel user = session.users().addUser(realm, username);
        user.setEnabled(true);
        if (email != null) {
            user.setEmail(email);
        }
        setAll(user, attributesJson);
        String view = Json.write(UserViews.of(user));
        userLookup().release(user.getId());
        return view;
    }

    @HostAccess.Export
    public void setUserAttributes(String userId, String attributesJson) {
        setAll(requireUser(userId), attributesJson);
        userLookup().release(userId);
    }

    /** The user's view, or null when there is no such user. */
    @HostAccess.Export
    public String findUserById(String userId) {
        UserModel user = session.users().getUserById(realm, userId);
        return user == null ? null : Json.write(UserViews.of(user));
    }

    /** Removes the user (true also when there was none). */
    @HostAccess.Export
    public boolean removeUser(String userId) {
        UserModel user = session.users().getUserById(realm, userId);
        return user == null || session.users().removeUser(realm, user);
    }

    @HostAccess.Export
    public void setUserEnabled(String userId, boolean enabled) {
        requireUser(userId).setEnabled(enabled);
    }

    /** Ends the user's online and offline sessions; answers how many. */
    @HostAccess.Export
    public int endUserSessions(String userId) {
        UserModel user = requireUser(userId);
        List<UserSessionModel> online = session.sessions().getUserSessionsStream(realm, user).collect(Collectors.toList());
        List<UserSessionModel> offline = session.sessions().getOfflineUserSessionsStream(realm, user).collect(Collectors.toList());
        online.forEach(userSession -> session.sessions().removeUserSession(realm, userSession));
        offline.forEach(userSession -> session.sessions().removeOfflineUserSession(realm, userSession));
        return online.size() + offline.size();
    }

    /** Keycloak's own check (UserModel.hasRole): direct mappings, composites and groups, read now. */
    @HostAccess.Export
    public boolean userHasRealmRole(String userId, String roleName) {
        UserModel user = session.users().getUserById(realm, userId);
        RoleModel role = realm.getRole(roleName);
        return user != null && role != null && user.hasRole(role);
    }

    // --- outbound HTTP, models folder, clock, log ---

    /** JSON list of the addresses the name resolves to, or null when it does not resolve. */
    @HostAccess.Export
    public String httpResolve(String name) {
        return HttpFacade.resolve(name);
    }

    @HostAccess.Export
    public String httpGetAt(String url, String address, int timeoutMs) {
        return HttpFacade.getAt(url, address, timeoutMs);
    }

    /** Keycloak's SVC_ADMIN_PROBE_ALLOW (address ranges the connector probe may reach although internal), "" when unset. */
    @HostAccess.Export
    public String probeAllow() {
        return System.getenv().getOrDefault("SVC_ADMIN_PROBE_ALLOW", "");
    }

    /** Keycloak's SVC_ADMIN_AUDIT_RETENTION_DAYS (days the audit of operators' access keeps an entry), "" when unset. */
    @HostAccess.Export
    public String auditRetentionDays() {
        return System.getenv().getOrDefault("SVC_ADMIN_AUDIT_RETENTION_DAYS", "");
    }

    @HostAccess.Export
    public String httpPostJson(String url, String body, int timeoutMs) {
        return HttpFacade.postJson(url, "{}", body, timeoutMs);
    }

    /** The session service at env SESSION_URL with env SESSION_API_KEY: run-time settings the script never sees. */
    @HostAccess.Export
    public String sessionServicePost(String path, String body, int timeoutMs) {
        String base = System.getenv().getOrDefault("SESSION_URL", "http://localhost:3003").replaceAll("/+$", "");
        String configured = System.getenv(SESSION_KEY_SETTING);
        String key = configured == null || configured.isEmpty() ? DEVELOPMENT_SESSION_KEYS.get(0) : configured;
        return HttpFacade.postJson(base + path, Json.write(Map.of("X-API-Key", key)), body, timeoutMs);
    }

    /**
     * A platform service svc-admin's person pages read and erase through: its address and Keycloak's
     * own key there are run-time settings (env {@code SESSION_URL}/{@code SESSION_API_KEY},
     * {@code GATEWAY_URL}/{@code SVC_ADMIN_GATEWAY_KEY}, {@code ENTITLEMENT_URL}/{@code SVC_ADMIN_ENTITLEMENT_KEY},
     * {@code PORTAL_URL}/{@code SVC_ADMIN_PORTAL_KEY}) the script never sees; the script names only the service, the method (GET or POST) and the path.
     */
    @HostAccess.Export
    public String serviceCall(String service, String method, String path, String body, int timeoutMs) {
        PlatformService target = PlatformService.named(service);
        if (target == null || !("GET".equals(method) || "POST".equals(method)) || !path.startsWith("/")) {
            throw new IllegalArgumentException("no such platform service call");
        }
        String base = System.getenv().getOrDefault(target.urlSetting, target.defaultUrl).replaceAll("/+$", "");
        String configured = System.getenv(target.keySetting);
        String key = configured == null || configured.isEmpty() ? target.developmentKey : configured;
        return HttpFacade.send(base + path, method, Json.write(Map.of("X-API-Key", key)), "GET".equals(method) ? null : body, timeoutMs);
    }

    /** The services svc-admin calls, with the development defaults `make up` and the harness use (a production start refuses them). */
    enum PlatformService {
        SESSION("session", "SESSION_URL", "http://localhost:3003", SESSION_KEY_SETTING, "dev-session-keycloak-key"),
        GATEWAY("gateway", "GATEWAY_URL", "http://localhost:3004", "SVC_ADMIN_GATEWAY_KEY", "dev-gateway-keycloak-key"),
        ENTITLEMENT("entitlement", "ENTITLEMENT_URL", "http://localhost:3002", "SVC_ADMIN_ENTITLEMENT_KEY", "dev-entitlement-keycloak-key"),
        PORTAL("portal", "PORTAL_URL", "http://localhost:3000", "SVC_ADMIN_PORTAL_KEY", "dev-portal-keycloak-key");

        final String name;
        final String urlSetting;
        final String defaultUrl;
        final String keySetting;
        final String developmentKey;

        PlatformService(String name, String urlSetting, String defaultUrl, String keySetting, String developmentKey) {
            this.name = name;
            this.urlSetting = urlSetting;
            this.defaultUrl = defaultUrl;
            this.keySetting = keySetting;
            this.developmentKey = developmentKey;
        }

        boolean isDevelopmentKey(String configured) {
            return configured == null || configured.isEmpty() || developmentKey.equals(configured);
        }

        static PlatformService named(String name) {
            for (PlatformService service : values()) {
                if (service.name.equals(name)) {
                    return service;
                }
            }
            return null;
        }
    }

    @HostAccess.Export
    public String modelFiles() {
        return Json.write(models.list());
    }

    @HostAccess.Export
    public String modelRead(String file) {
        return models.read(file);
    }

    @HostAccess.Export
    public boolean modelWrite(String file, String content) {
        return models.write(file, content);
    }

    // --- GUI assets ---

    /** manifest.json of the GUI's built files (svc-admin/gui/bundle.ts), or null when the jar has none. */
    @HostAccess.Export
    public String assetManifest() {
        return GuiAssets.manifest();
    }

    private String completed;

    /** An asynchronous reply (DMN routes) arrives here once its promise has settled. */
    @HostAccess.Export
    public void complete(String replyJson) {
        completed = replyJson;
    }

    String completedReply() {
        return completed;
    }

    private UserModel requireUser(String userId) {
        UserModel user = session.users().getUserById(realm, userId);
        if (user == null) {
            throw new IllegalStateException("user vanished during the request");
        }
        return user;
    }

    private static void setAll(UserModel user, String attributesJson) {
        Json.readObject(attributesJson).forEach((name, value) -> user.setSingleAttribute(name, String.valueOf(value)));
    }
}
