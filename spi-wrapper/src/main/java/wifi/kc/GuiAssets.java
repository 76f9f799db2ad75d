package wifi.kc;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The svc-admin GUI's built files, packed into this jar under {@code /svc-admin-assets/} by the
 * pom. Moves bytes only: which names are served, with which headers, is decided by the script
 * (kc-extension/svc-admin/assets.ts) from the manifest.
 */
final class GuiAssets {

    private static final String FOLDER = "/svc-admin-assets/";
    private static volatile String manifest;

    private GuiAssets() {
    }

    /** The manifest text, read once; null when the jar was built without the GUI. */
    static String manifest() {
        String text = manifest;
        if (text == null) {
            byte[] raw = read("manifest.json");
            text = raw == null ? "" : new String(raw, StandardCharsets.UTF_8);
            manifest = text;
        }
        return text.isEmpty() ? null : text;
    }

    /** The named file's bytes; the script only names files its manifest lists. */
    static byte[] bytes(String name) {
        byte[] raw = read(name);
        if (raw == null) {
            throw new IllegalStateException("GUI asset missing from the jar");
        }
        return raw;
    }

    private static byte[] read(String name) {
        try (InputStream in = GuiAssets.class.getResourceAsStream(FOLDER + name)) {
            return in == null ? null : in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
