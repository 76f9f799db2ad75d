package wifi.kc;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.HexFormat;
import java.util.UUID;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import org.graalvm.polyglot.HostAccess;
import org.jboss.logging.Logger;

/**
 * What every script facade offers alike: ids, the clock, and logging under the facade's own
 * category. The script decides what to log; Java only writes it.
 */
public abstract class ScriptHostBasics {

    /** The key voucher codes are hashed under: svc-admin makes codes with it, the voucher authenticator finds them with it. */
    static final String VOUCHER_KEY_SETTING = "WIFI_VOUCHER_HASH_KEY";
    static final String DEVELOPMENT_VOUCHER_KEY = "dev-voucher-hash-key";

    static boolean isDevelopmentVoucherKey(String configured) {
        return configured == null || configured.isBlank() || DEVELOPMENT_VOUCHER_KEY.equals(configured);
    }

    private final Logger log;

    ScriptHostBasics(Logger log) {
        this.log = log;
    }

    @HostAccess.Export
    public String newUuid() {
        return UUID.randomUUID().toString();
    }

    @HostAccess.Export
    public double nowMs() {
        return System.currentTimeMillis();
    }

    @HostAccess.Export
    public void log(String level, String message) {
        switch (level) {
            case "error" -> log.error(message);
            case "warn" -> log.warn(message);
            case "info" -> log.info(message);
            default -> log.debug(message);
        }
    }

    /**
     * Lower-case hex HMAC-SHA256 of {@code data} under env WIFI_VOUCHER_HASH_KEY (the development
     * key when unset; a production start refuses that, StartFacts). The key never reaches a script.
     */
    @HostAccess.Export
    public String voucherHashHex(String data) {
        String configured = System.getenv(VOUCHER_KEY_SETTING);
        String key = configured == null || configured.isBlank() ? DEVELOPMENT_VOUCHER_KEY : configured;
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return HexFormat.of().formatHex(mac.doFinal(data.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 unavailable", e);
        }
    }
}
