package wifi.kc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class InternalErrorReplyTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String GIVEN = "corr-0b7e7c52-0c1e-4a5e-9d1c-3f4a5b6c7d8e";

    @SuppressWarnings("unchecked")
    private static Map<String, Object> read(String json) throws Exception {
        return JSON.readValue(json, Map.class);
    }

    @Test
    void theBundleBuildsTheContractErrorObjectUnderTheCallersCorrelationId() throws Exception {
        JsRuntime runtime = JsRuntime.acquire();
        try {
            Map<String, Object> reply = read(InternalErrorReply.of(runtime::call, GIVEN));
            assertEquals(500, reply.get("status"));
            assertEquals(true, reply.get("rollback"));
            assertEquals(GIVEN, ((Map<?, ?>) reply.get("headers")).get("X-Correlation-ID"));
            Map<String, Object> body = read((String) reply.get("body"));
            assertEquals("INTERNAL_ERROR", body.get("code"));
            assertEquals(GIVEN, body.get("correlationId"));
            assertTrue(body.get("timestamp").toString().matches("\\d{4}-\\d\\d-\\d\\dT.*Z"));

            Map<String, Object> minted = read((String) read(InternalErrorReply.of(runtime::call, "987650001234")).get("body"));
            assertTrue(minted.get("correlationId").toString().matches("corr-[0-9a-f-]{36}"));
        } finally {
            JsRuntime.release();
        }
    }

    @Test
    void anUnusableScriptEngineGivesTheBareConstantAndReportsOnlyTheExceptionClass() throws Exception {
        // The report goes to the test, not to the build's log: a normal build prints no ERROR line.
        List<String> reports = new ArrayList<>();
        String answer = InternalErrorReply.of((function, args) -> {
            throw new IllegalStateException("engine closed");
        }, GIVEN, reports::add);
        assertEquals(InternalErrorReply.LAST_RESORT, answer);
        assertEquals(List.of("svc-admin error reply unavailable: java.lang.IllegalStateException"), reports);
        Map<String, Object> reply = read(answer);
        assertEquals(500, reply.get("status"));
        assertEquals("INTERNAL_ERROR", read((String) reply.get("body")).get("code"));
        assertNotEquals(null, reply.get("rollback"));
    }
}
