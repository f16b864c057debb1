package org.sylva.bench.ab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class VersionABTest {
    @TempDir
    Path dir;

    @Test
    void parsesTheOptionsAndTheirDefaults() throws Exception {
        Path jar = Files.createFile(dir.resolve("core.jar"));
        VersionAB.Options o = VersionAB.parse(new String[] {"--a", jar.toString(), "--b", dir.toString()});
        assertEquals(jar.toAbsolutePath(), o.a());
        assertEquals(VersionAB.DEFAULT_ROUNDS, o.rounds());
        assertEquals(VersionAB.DEFAULT_THREADS, o.threads());
        assertNull(o.only());
        o = VersionAB.parse(new String[] {
            "--only", "balltree", "--threads", "1", "--rounds", "3", "--b", jar.toString(), "--a", jar.toString()});
        assertEquals("balltree", o.only());
        assertEquals(1, o.threads());
        assertEquals(3, o.rounds());
        assertNull(o.input());
        assertEquals(20, o.minClusterSize());
        Path npy = Files.createFile(dir.resolve("x.npy"));
        o = VersionAB.parse(new String[] {
            "--a", jar.toString(), "--b", jar.toString(), "--input", npy.toString(), "--min-cluster-size", "5"});
        assertEquals(npy.toAbsolutePath(), o.input());
        assertEquals(5, o.minClusterSize());
    }

    @Test
    void rejectsBadCommandLinesWithAMessage() throws Exception {
        String jar = Files.createFile(dir.resolve("core.jar")).toString();
        String[][] bad = {
            {}, {"--a", jar}, {"--a", jar, "--b"}, {"--a", jar, "--b", dir.resolve("missing.jar").toString()},
            {"--a", jar, "--b", jar, "--rounds", "0"}, {"--a", jar, "--b", jar, "--threads", "two"},
            {"--a", jar, "--b", jar, "--only", "mst"}, {"--a", jar, "--b", jar, "--warmup", "3"},
            {"--a", jar, "--b", jar, "--input", dir.resolve("missing.npy").toString()},
            {"--a", jar, "--b", jar, "--input", jar}, {"--a", jar, "--b", jar, "--min-cluster-size", "1"},
        };
        for (String[] args : bad) {
            VersionAB.UsageException e = assertThrows(VersionAB.UsageException.class, () -> VersionAB.parse(args));
            assertTrue(e.getMessage() != null && !e.getMessage().isBlank(), String.join(" ", args));
        }
        String[] help = {"--help"};
        assertNull(assertThrows(VersionAB.UsageException.class, () -> VersionAB.parse(help)).getMessage());
    }

    @Test
    void namesTheFirstDifference() {
        String[] names = {"indices", "mask"};
        Object[] x = {new int[] {0, 1, 2}, new boolean[] {true, false}};
        assertNull(VersionAB.difference(names, x, new Object[] {new int[] {0, 1, 2}, new boolean[] {true, false}}));
        assertEquals("indices differ at 2 of 3 positions, first at 1: 1 vs 2",
                VersionAB.difference(names, x, new Object[] {new int[] {0, 2, 1}, new boolean[] {true, false}}));
        assertEquals("mask differ in length: 2 vs 1",
                VersionAB.difference(names, x, new Object[] {new int[] {0, 1, 2}, new boolean[] {true}}));
    }
}
