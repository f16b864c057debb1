package org.sylva.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A failed run removes the empty folders it made, and only those: not one that another process made at the same path
 * after the run's folder was moved away, nor one that holds files.
 */
class CreatedDirectoriesTest {
    @Test
    void theFoldersARunMadeAreRemovedWhenEmpty(@TempDir Path tmp) {
        CreatedDirectories made = new CreatedDirectories();
        Path out = tmp.resolve("a").resolve("b");
        made.prepare("--out", out);
        assertTrue(Files.isDirectory(out));
        made.removeEmpty();
        assertFalse(Files.exists(tmp.resolve("a")), "both levels it made");
    }

    @Test
    void aFolderMadeByAnotherAtTheSamePathIsKept(@TempDir Path tmp) throws IOException {
        CreatedDirectories made = new CreatedDirectories();
        Path out = tmp.resolve("out");
        made.prepare("--out", out);
        Files.move(out, tmp.resolve("moved"));   // the user moves the run's folder away and makes another
        Files.createDirectory(out);
        made.removeEmpty();
        assertTrue(Files.isDirectory(out), "the user's folder is not the run's");
        assertTrue(Files.isDirectory(tmp.resolve("moved")), "nor is the moved one removed by its old path");
    }

    @Test
    void aFolderWithFilesIsKept(@TempDir Path tmp) throws IOException {
        CreatedDirectories made = new CreatedDirectories();
        Path out = tmp.resolve("out");
        made.prepare("--out", out);
        Files.writeString(out.resolve("someone's.txt"), "x");
        made.removeEmpty();
        assertTrue(Files.exists(out.resolve("someone's.txt")));
    }
}
