package org.sylva.gpu;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The loader's own reason for a library that will not open, which Java's lookup drops. */
class LoaderErrorTest {
    @Test
    void aBrokenLibraryAndAMissingOneGetTheLoadersReasons(@TempDir Path tmp) throws Exception {
        Path empty = Files.createFile(tmp.resolve("libempty.so"));
        String broken = LoaderError.of(empty.toString());
        assertTrue(broken != null && broken.contains("file too short"), broken);
        String missing = LoaderError.of(tmp.resolve("libnone.so").toString());
        assertTrue(missing != null && missing.contains("No such file"), missing);
        assertNull(LoaderError.of("libc.so.6"), "a library that opens has no error");
        assertTrue(LoaderError.reason(empty.toString(), "Cannot open library").contains("file too short"));
        assertTrue(LoaderError.saysMissing(missing) && !LoaderError.saysMissing(broken));
        assertTrue(LoaderError.saysMissing("Cannot open library: libnone.so"), "Java's own words when dlopen is not found");
    }
}
