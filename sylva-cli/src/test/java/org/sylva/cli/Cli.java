package org.sylva.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * Runs the {@code sylva} command in-process through {@link Main#run} and captures its exit status,
 * stdout and stderr; plus the assertions every end-to-end test shares.
 *
 * <pre>{@code
 * Cli.Result r = Cli.run("hdbscan", "x.npy", "--out", dir.toString());
 * r.assertOk();
 * }</pre>
 */
final class Cli {
    private Cli() {
    }

    /**
     * What one run produced.
     *
     * @param code exit status
     * @param out everything written to stdout
     * @param err everything written to stderr
     */
    record Result(int code, String out, String err) {
        /** Exit 0; otherwise fails showing stderr. */
        Result assertOk() {
            assertEquals(0, code, () -> "exit status " + code + "; stderr:\n" + err + "\nstdout:\n" + out);
            return this;
        }

        /**
         * Exit 2 with exactly one line on stderr, starting "sylva: error:", holding every one of
         * {@code expected} and no stack trace; returns that line.
         */
        String assertError(String... expected) {
            assertEquals(ExitStatus.ERROR, code, () -> "exit status " + code + "; stderr:\n" + err);
            List<String> lines = err.lines().toList();
            assertEquals(1, lines.size(), () -> "expected exactly one line on stderr, got:\n" + err);
            String line = lines.get(0);
            assertTrue(line.startsWith("sylva: error: "), () -> "not an error line: " + line);
            for (String e : expected) {
                assertTrue(line.contains(e), () -> "error line lacks '" + e + "': " + line);
            }
            assertFalse(err.contains("\tat ") || err.contains("Exception"),
                    () -> "stack trace or exception class name without --verbose:\n" + err);
            assertEquals("", out, "nothing on stdout after an error");
            return line;
        }
    }

    static Result run(String... args) {
        return runWithStdin(null, args);
    }

    /** Runs with {@code stdin} (may be null: the real System.in) standing for standard input. */
    static Result runWithStdin(byte[] stdin, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code;
        try (PrintWriter o = new PrintWriter(out); PrintWriter e = new PrintWriter(err)) {
            code = stdin == null ? Main.run(args, o, e) : Main.run(args, o, e, new ByteArrayInputStream(stdin));
        }
        return new Result(code, out.toString(), err.toString());
    }

    /** Names of the entries of {@code dir}, sorted; empty when it does not exist. */
    static List<String> list(Path dir) throws IOException {
        if (!Files.exists(dir)) return List.of();
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    /** {@code names} and the manifest every complete run writes last, sorted (what a folder lists). */
    static List<String> withManifest(List<String> names) {
        return Stream.concat(names.stream(), Stream.of(org.sylva.io.ResultFolder.MANIFEST)).sorted().toList();
    }

    /** {@code dir} holds nothing: no output, no temporary ({@code .NAME.part}), no probe file. */
    static void assertNothingWritten(Path dir) throws IOException {
        List<String> names = list(dir);
        assertTrue(names.isEmpty(), () -> dir + " should hold nothing after a failed run, holds " + names);
    }
}
