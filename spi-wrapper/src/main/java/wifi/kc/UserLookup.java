package wifi.kc;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import jakarta.persistence.EntityManager;

/**
 * Bulk user look-ups for the member import (AdminHostFacade.findUsersByKeys): which users of the
 * realm carry given attribute values, usernames or emails, in chunked {@code IN (...)} queries
 * over Keycloak's JPA entities, plus their views in two more queries per chunk. Moves data only;
 * the import's rules read the answer in TypeScript. Runs in the request's transaction (queries
 * see what the request wrote before them).
 */
final class UserLookup {

    /** Values per IN list: far below every supported database's parameter limit. */
    static final int CHUNK = 500;

    private final EntityManager em;
    private final String realmId;

    UserLookup(EntityManager em, String realmId) {
        this.em = em;
        this.realmId = realmId;
    }

    /**
     * {@code keys} = {attributes: {name: [values]}, usernames: [..], emails: [..]}; answers each
     * matching user once. A password counts when the realm's database holds one (a user federated
     * from a directory is not looked up here). Attribute values longer than 255 characters
     * (Keycloak keeps those in another column) are not matched: the import's keys are short.
     */
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> findByKeys(Map<String, Object> keys) {
        Set<String> ids = new LinkedHashSet<>();
        ((Map<String, List<String>>) keys.getOrDefault("attributes", Map.of())).forEach((name, values) -> {
            for (List<String> chunk : chunks(values)) {
                ids.addAll(em.createQuery("select a.user.id from UserAttributeEntity a"
                        + " where a.user.realmId = :realm and a.name = :name and a.value in :values", String.class)
                        .setParameter("realm", realmId).setParameter("name", name).setParameter("values", chunk).getResultList());
            }
        });
        for (String column : List.of("username", "email")) {
            for (List<String> chunk : chunks((List<String>) keys.getOrDefault(column + "s", List.of()))) {
                ids.addAll(em.createQuery("select u.id from UserEntity u where u.realmId = :realm and u." + column + " in :values", String.class)
                        .setParameter("realm", realmId).setParameter("values", chunk).getResultList());
            }
        }
        return views(new ArrayList<>(ids));
    }

    /**
     * Writes the user's pending changes and takes its entities out of the persistence context.
     * Every flush checks every entity the context holds, and Keycloak's addUser flushes once per
     * user: without this an import of n rows costs O(n^2). Nothing pending is dropped (flush
     * first), and a later read of the user in this request loads it again (Keycloak's user cache
     * sends users registered for invalidation, as written ones are, to the database layer).
     */
    void release(String userId) {
        em.flush();
        // Entity names in JPQL text, not entity classes: keycloak-model-jpa is on Keycloak's class
        // path at run time but cannot be a build dependency (see AdminHostFacade.entityManager).
        for (String query : List.of(
                "select m from UserRoleMappingEntity m where m.user.id = :id",
                "select a from UserAttributeEntity a where a.user.id = :id",
                "select r from UserRequiredActionEntity r where r.user.id = :id",
                "select u from UserEntity u where u.id = :id")) {
            em.createQuery(query).setParameter("id", userId).getResultList().forEach(em::detach);
        }
    }

    private List<Map<String, Object>> views(List<String> ids) {
        Map<String, Map<String, Object>> views = new LinkedHashMap<>();
        ids.forEach(id -> views.put(id, null));
        for (List<String> chunk : chunks(ids)) {
            Set<String> withPassword = new LinkedHashSet<>(em.createQuery("select c.user.id from CredentialEntity c"
                    + " where c.user.id in :ids and c.type = 'password'", String.class)
                    .setParameter("ids", chunk).getResultList());
            for (Object[] row : em.createQuery("select u.id, u.username, u.email, u.emailVerified, u.enabled from UserEntity u where u.id in :ids", Object[].class)
                    .setParameter("ids", chunk).getResultList()) {
                String id = (String) row[0];
                views.put(id, UserViews.of(id, (String) row[1], (String) row[2], (Boolean) row[3], (Boolean) row[4], withPassword.contains(id), new LinkedHashMap<>()));
            }
            for (Object[] row : em.createQuery("select a.user.id, a.name, a.value from UserAttributeEntity a"
                    + " where a.user.id in :ids", Object[].class)
                    .setParameter("ids", chunk).getResultList()) {
                @SuppressWarnings("unchecked")
                Map<String, Object> attributes = (Map<String, Object>) views.get((String) row[0]).get("attributes");
                // The first value, as UserModel.getFirstAttribute (putIfAbsent also replaces a null).
                attributes.putIfAbsent((String) row[1], row[2]);
            }
        }
        return new ArrayList<>(views.values());
    }

    private static List<List<String>> chunks(List<String> values) {
        List<List<String>> out = new ArrayList<>();
        for (int from = 0; from < values.size(); from += CHUNK) {
            out.add(values.subList(from, Math.min(values.size(), from + CHUNK)));
        }
        return out;
    }
}
