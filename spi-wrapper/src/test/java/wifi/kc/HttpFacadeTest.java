package wifi.kc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.Test;

class HttpFacadeTest {

    /** A local server that records each request's Content-Type and body and answers 202. */
    private static HttpServer recording(List<String> seen) throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            seen.add(exchange.getRequestHeaders().getFirst("Content-Type") + " " + new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            exchange.sendResponseHeaders(202, -1);
            exchange.close();
        });
        server.start();
        return server;
    }

    @Test
    void aBodyIsJsonUnlessTheCallerNamesItsTypeAndIsSentAsGiven() throws Exception {
        List<String> seen = new ArrayList<>();
        HttpServer server = recording(seen);
        try {
            String url = "http://127.0.0.1:" + server.getAddress().getPort() + "/sms";
            assertTrue(HttpFacade.postJson(url, "{}", "{\"to\":\"+84912345678\"}", 2000).contains("\"status\":202"));
            assertTrue(HttpFacade.postJson(url, "{\"content-type\":\"application/x-www-form-urlencoded\"}", "To=%2B84912345678&Body=M%C3%A3", 2000)
                    .contains("\"status\":202"));
            assertEquals(List.of("application/json {\"to\":\"+84912345678\"}", "application/x-www-form-urlencoded To=%2B84912345678&Body=M%C3%A3"), seen);
        } finally {
            server.stop(0);
        }
    }
}
