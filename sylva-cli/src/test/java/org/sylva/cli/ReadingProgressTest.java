package org.sylva.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A large text input shows its reading's progress (parsing it takes seconds); a small one, and -q, show none. */
class ReadingProgressTest {
    @TempDir
    Path tmp;

    private static Path csv(Path file, int rows) throws IOException {
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.US_ASCII)) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < rows; i++) {
                line.setLength(0);
                for (int j = 0; j < 61; j++) line.append(j == 0 ? "" : ",").append((i * 61 + j) % 997).append(".25");
                w.write(line.append('\n').toString());
            }
        }
        return file;
    }

    private static String read(Path file, boolean quiet) throws IOException {
        InputOptions in = new InputOptions();
        in.input = file.toString();
        StringWriter text = new StringWriter();
        PrintWriter err = new PrintWriter(text, true);
        InputStream none = InputStream.nullInputStream();
        InputOptions.Loaded loaded = in.readForFit(err, none, CliContext.inProcess(none).cancel(),
                CliContext.inProcess(none), quiet);
        assertEquals(61, loaded.points().dimensions());
        return text.toString();
    }

    @Test
    void aLargeTextFileShowsItsReadingAndASmallOneNothing() throws IOException {
        Path big = csv(tmp.resolve("big.csv"), 110_000);
        assertTrue(Files.size(big) >= InputOptions.TEXT_PROGRESS_BYTES, Files.size(big) + " bytes");
        List<String> lines = read(big, false).lines().toList();
        assertTrue(lines.size() >= 2, lines.toString());
        assertTrue(lines.get(0).startsWith("sylva: reading big.csv") || lines.get(0).startsWith("reading big.csv"),
                lines.toString());
        assertTrue(lines.get(0).contains("  0.0%") && lines.get(lines.size() - 1).contains("100.0%"), lines.toString());
        assertEquals("", read(big, true), "-q: no progress");
        assertEquals("", read(csv(tmp.resolve("small.csv"), 1000), false), "a small file reads without a line");
    }
}
