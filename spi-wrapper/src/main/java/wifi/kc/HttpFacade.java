package wifi.kc;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/** Outbound HTTP for JS: one POST with a JSON body; faults come back as values, never throws. */
final class HttpFacade {

    private static final HttpClient CLIENT = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .followRedirects(HttpClient.Redirect.NEVER)
            .build();

    private HttpFacade() {
    }

    /** Returns {@code {"status":n,"body":"..."}} or {@code {"failure":"timeout"|"unreachable"}}. */
    static String postJson(String url, String headersJson, String body, int timeoutMs) {
        Map<String, Object> result = new LinkedHashMap<>();
        try {
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url))
                    .timeout(Duration.ofMillis(timeoutMs))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
            Json.readObject(headersJson).forEach((name, value) -> request.header(name, String.valueOf(value)));
            HttpResponse<String> response = CLIENT.send(request.build(),
                    HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            result.put("status", response.statusCode());
            result.put("body", response.body());
        } catch (HttpConnectTimeoutException e) {
            result.put("failure", "unreachable");
        } catch (HttpTimeoutException e) {
            result.put("failure", "timeout");
        } catch (IOException | IllegalArgumentException e) {
            result.put("failure", "unreachable");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            result.put("failure", "unreachable");
        }
        return Json.write(result);
    }
}
