package wifi.kc;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Outbound HTTP for JS: one blocking POST with a JSON body; faults come back as values, never
 * throws. HttpURLConnection keeps connections alive and, being synchronous, costs no thread
 * hand-off on the login path.
 */
final class HttpFacade {

    private HttpFacade() {
    }

    /** A connection with the call's budget for connecting and for each read, never following redirects. */
    private static HttpURLConnection open(String url, String method, int timeoutMs) throws IOException {
        HttpURLConnection connection = (HttpURLConnection) URI.create(url).toURL().openConnection();
        connection.setConnectTimeout(timeoutMs);
        connection.setReadTimeout(timeoutMs);
        connection.setInstanceFollowRedirects(false);
        connection.setRequestMethod(method);
        return connection;
    }

    /** Returns {@code {"status":n,"body":"..."}} or {@code {"failure":"timeout"|"unreachable"}}. */
    static String postJson(String url, String headersJson, String body, int timeoutMs) {
        Map<String, Object> result = new LinkedHashMap<>();
        HttpURLConnection connection = null;
        try {
            connection = open(url, "POST", timeoutMs);
            connection.setDoOutput(true);
            connection.setRequestProperty("Content-Type", "application/json");
            connection.setRequestProperty("Accept", "application/json");
            for (Map.Entry<String, Object> header : Json.readObject(headersJson).entrySet()) {
                connection.setRequestProperty(header.getKey(), String.valueOf(header.getValue()));
            }
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            connection.setFixedLengthStreamingMode(bytes.length);
            try (OutputStream out = connection.getOutputStream()) {
                out.write(bytes);
            }
            int status = connection.getResponseCode();
            InputStream in = status >= 400 ? connection.getErrorStream() : connection.getInputStream();
            String text = "";
            if (in != null) {
                try (in) {
                    text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                }
            }
            result.put("status", status);
            result.put("body", text);
        } catch (SocketTimeoutException e) {
            result.put("failure", "timeout");
            disconnect(connection);
        } catch (IOException | IllegalArgumentException e) {
            result.put("failure", "unreachable");
            disconnect(connection);
        }
        return Json.write(result);
    }

    /**
     * One GET without a body read beyond the status: {@code {"status":n,"ms":m}} or
     * {@code {"failure":"timeout"|"unreachable","errorClass":"<exception class>","ms":m}}.
     */
    static String get(String url, int timeoutMs) {
        Map<String, Object> result = new LinkedHashMap<>();
        long started = System.nanoTime();
        HttpURLConnection connection = null;
        try {
            connection = open(url, "GET", timeoutMs);
            int status = connection.getResponseCode();
            InputStream in = status >= 400 ? connection.getErrorStream() : connection.getInputStream();
            if (in != null) {
                in.close();
            }
            result.put("status", status);
        } catch (SocketTimeoutException e) {
            result.put("failure", "timeout");
            result.put("errorClass", e.getClass().getName());
            disconnect(connection);
        } catch (IOException | IllegalArgumentException e) {
            result.put("failure", "unreachable");
            result.put("errorClass", e.getClass().getName());
            disconnect(connection);
        }
        result.put("ms", (System.nanoTime() - started) / 1_000_000);
        return Json.write(result);
    }

    private static void disconnect(HttpURLConnection connection) {
        // A timed-out connection may still receive the late answer: never reuse it.
        if (connection != null) {
            connection.disconnect();
        }
    }
}
