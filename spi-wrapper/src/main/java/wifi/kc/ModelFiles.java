package wifi.kc;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The decision models folder (Keycloak's environment DMN_DIR): only plain `*.dmn` names
 * directly inside it can be read or replaced; a replace is a write to a temp file in the same
 * folder and an atomic rename.
 */
final class ModelFiles {

    private final Path dir;

    ModelFiles(String dir) {
        this.dir = dir == null || dir.isBlank() ? null : Path.of(dir).toAbsolutePath().normalize();
    }

    List<String> list() {
        List<String> names = new ArrayList<>();
        if (dir == null || !Files.isDirectory(dir)) {
            return names;
        }
        try (Stream<Path> files = Files.list(dir)) {
            files.map(file -> file.getFileName().toString()).filter(name -> name.endsWith(".dmn")).sorted().forEach(names::add);
        } catch (IOException e) {
            return names;
        }
        return names;
    }

    String read(String file) {
        Path target = resolve(file);
        try {
            return target == null || !Files.isRegularFile(target) ? null : Files.readString(target, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return null;
        }
    }

    boolean write(String file, String content) {
        Path target = resolve(file);
        if (target == null) {
            return false;
        }
        try {
            Path temp = Files.createTempFile(dir, ".svc-admin-", ".tmp");
            Files.writeString(temp, content, StandardCharsets.UTF_8);
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private Path resolve(String file) {
        if (dir == null || file == null || !file.matches("[A-Za-z0-9._-]{1,64}\\.dmn") || file.startsWith(".")) {
            return null;
        }
        return dir.resolve(file);
    }
}
