package wifi.kc;

import java.util.UUID;

import org.graalvm.polyglot.HostAccess;
import org.jboss.logging.Logger;

/**
 * What every script facade offers alike: ids, the clock, and logging under the facade's own
 * category. The script decides what to log; Java only writes it.
 */
public abstract class ScriptHostBasics {

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
}
