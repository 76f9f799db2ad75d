package wifi.kc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ModelFilesTest {

    @TempDir
    Path dir;

    @Test
    void namesOutsideThePlainDmnPatternAreRefused() throws IOException {
        Files.writeString(dir.resolveSibling("outside.dmn"), "secret", StandardCharsets.UTF_8);
        ModelFiles models = new ModelFiles(dir.toString());
        for (String name : List.of("../outside.dmn", "sub/model.dmn", ".hidden.dmn", "model.xml", "model.dmn.tmp", "")) {
            assertFalse(models.write(name, "x"), name);
            assertNull(models.read(name), name);
        }
        assertNull(models.read(null));
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(0, files.count());
        }
    }

    @Test
    void aWriteReplacesTheFileWholeAndLeavesNoTemporaryFile() throws IOException {
        Files.writeString(dir.resolve("eligibility.dmn"), "old", StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("notes.txt"), "not a model", StandardCharsets.UTF_8);
        ModelFiles models = new ModelFiles(dir.toString());
        assertTrue(models.write("eligibility.dmn", "new"));
        assertEquals("new", models.read("eligibility.dmn"));
        assertEquals(List.of("eligibility.dmn"), models.list());
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(List.of("eligibility.dmn", "notes.txt"), files.map(file -> file.getFileName().toString()).sorted().toList());
        }
    }

    @Test
    void withoutAFolderNothingIsListedReadOrWritten() {
        ModelFiles models = new ModelFiles(null);
        assertEquals(List.of(), models.list());
        assertFalse(models.write("eligibility.dmn", "x"));
        assertNull(models.read("eligibility.dmn"));
    }
}
