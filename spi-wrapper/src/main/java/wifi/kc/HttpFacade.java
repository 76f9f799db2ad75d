package wifi.kc;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;

/**
 * Outbound HTTP for JS: one blocking POST with a JSON body (or the type the caller names), and the connector probe's name
 * lookup and pinned GET; faults come back as values, never throws. HttpURLConnection keeps connections alive and, being synchronous, costs no thread
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
        return send(url, "POST", headersJson, body, timeoutMs);
    }

    /** One JSON request: a POST carries {@code body}, a GET (body null) none; the answer as {@link #postJson}. */
    static String send(String url, String method, String headersJson, String body, int timeoutMs) {
        Map<String, Object> result = new LinkedHashMap<>();
        HttpURLConnection connection = null;
        try {
            connection = open(url, method, timeoutMs);
            connection.setRequestProperty("Accept", "application/json");
            boolean typed = false;
            for (Map.Entry<String, Object> header : Json.readObject(headersJson).entrySet()) {
                connection.setRequestProperty(header.getKey(), String.valueOf(header.getValue()));
                typed |= header.getKey().equalsIgnoreCase("Content-Type");
            }
            if (body != null) {
                connection.setDoOutput(true);
                // JSON unless the caller named the body's type (a form, for an SMS gateway).
                if (!typed) {
                    connection.setRequestProperty("Content-Type", "application/json");
                }
                byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
                connection.setFixedLengthStreamingMode(bytes.length);
                try (OutputStream out = connection.getOutputStream()) {
                    out.write(bytes);
                }
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

    /** JSON list of the addresses a name (or an address literal) resolves to; null when it does not resolve. */
    static String resolve(String name) {
        try {
            List<String> addresses = new ArrayList<>();
            for (InetAddress address : InetAddress.getAllByName(name)) {
                addresses.add(address.getHostAddress());
            }
            return Json.write(addresses);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * One GET of {@code url} sent to {@code address} (an address literal the caller judged), so a
     * second name lookup cannot send it elsewhere; the URL's host still names the server (Host
     * header, TLS server name and certificate check). Reads the status line only, follows no
     * redirect. {@code {"status":n}} or {@code {"failure":"timeout"|"unreachable"}}.
     */
    static String getAt(String url, String address, int timeoutMs) {
        Map<String, Object> result = new LinkedHashMap<>();
        try {
            URI uri = URI.create(url);
            boolean tls = "https".equalsIgnoreCase(uri.getScheme());
            int port = uri.getPort() != -1 ? uri.getPort() : tls ? 443 : 80;
            String host = uri.getHost();
            InetAddress target = InetAddress.getByName(address.replaceAll("^\\[|\\]$", ""));
            try (Socket plain = new Socket()) {
                plain.connect(new InetSocketAddress(target, port), timeoutMs);
                plain.setSoTimeout(timeoutMs);
                Socket socket = plain;
                if (tls) {
                    SSLSocket secure = (SSLSocket) ((SSLSocketFactory) SSLSocketFactory.getDefault())
                            .createSocket(plain, host.replaceAll("^\\[|\\]$", ""), port, true);
                    SSLParameters parameters = secure.getSSLParameters();
                    parameters.setEndpointIdentificationAlgorithm("HTTPS");
                    secure.setSSLParameters(parameters);
                    secure.startHandshake();
                    socket = secure;
                }
                String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
                String request = "GET " + path + " HTTP/1.1\r\nHost: " + host + (uri.getPort() != -1 ? ":" + port : "")
                        + "\r\nConnection: close\r\nAccept: */*\r\n\r\n";
                OutputStream out = socket.getOutputStream();
                out.write(request.getBytes(StandardCharsets.US_ASCII));
                out.flush();
                String statusLine = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.ISO_8859_1)).readLine();
                String[] parts = statusLine == null ? new String[0] : statusLine.split(" ", 3);
                if (parts.length < 2 || !parts[0].startsWith("HTTP/") || !parts[1].matches("\\d{3}")) {
                    throw new IOException("not an HTTP answer");
                }
                result.put("status", Integer.parseInt(parts[1]));
            }
        } catch (SocketTimeoutException e) {
            result.put("failure", "timeout");
        } catch (IOException | RuntimeException e) {
            result.put("failure", "unreachable");
        }
        return Json.write(result);
    }

    private static void disconnect(HttpURLConnection connection) {
        // A timed-out connection may still receive the late answer: never reuse it.
        if (connection != null) {
            connection.disconnect();
        }
    }
}
