package wifi.kc;

import java.util.UUID;
import java.util.function.Consumer;

import org.jboss.logging.Logger;

/**
 * The reply of an svc-admin request whose script call failed. The bundle builds it from the wire
 * contract (kc-extension/main.ts internalErrorReply: spec 2.2 INTERNAL_ERROR, correlation id);
 * Java keeps a bare constant only for when the script engine itself cannot answer.
 */
final class InternalErrorReply {

    /** Used only when the script engine is unusable: no correlation id can be vouched for. */
    static final String LAST_RESORT = "{\"status\":500,\"contentType\":\"application/json\",\"rollback\":true,"
            + "\"body\":\"{\\\"code\\\":\\\"INTERNAL_ERROR\\\",\\\"message\\\":\\\"Something went wrong on our side.\\\"}\"}";

    private static final Logger LOG = Logger.getLogger(InternalErrorReply.class);

    /** What JsRuntime offers: {@code WifiExtension.<function>(args...)} as a string. */
    @FunctionalInterface
    interface Script {
        String call(String function, Object... args);
    }

    private InternalErrorReply() {
    }

    /** The reply JSON (status, contentType, body, headers, rollback) for the caller's correlation header. */
    static String of(Script script, String givenCorrelationId) {
        return of(script, givenCorrelationId, LOG::error);
    }

    /** The same, telling {@code report} (the error log in Keycloak) when the engine could not answer. */
    static String of(Script script, String givenCorrelationId, Consumer<String> report) {
        try {
            return script.call("internalErrorReply", givenCorrelationId, UUID.randomUUID().toString(), (double) System.currentTimeMillis());
        } catch (RuntimeException e) {
            report.accept("svc-admin error reply unavailable: " + e.getClass().getName());
            return LAST_RESORT;
        }
    }
}
