package org.sylva.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code @FILE} arguments that picocli would misread are refused in one line before anything runs: a directory, a
 * file that cannot be read, a quote left open; a file named inside a file is checked too; good files, {@code @@NAME}
 * and names no file has still reach picocli as before.
 */
class ArgumentFilesTest {
    @TempDir
    Path tmp;

    @Test
    void aDirectoryIsRefusedInOneLine() throws IOException {
        Path dir = Files.createDirectory(tmp.resolve("argsdir"));
        for (String command : new String[] {"hdbscan", "balltree", "verify"}) {
            Cli.run(command, "@" + dir, "--out", tmp.resolve("o").toString())
                    .assertError("@" + dir, "is a directory, not a file of arguments");
        }
        assertFalse(Files.exists(tmp.resolve("o")));
    }

    @Test
    void aQuoteLeftOpenIsRefusedNamingItsLine() throws IOException {
        Path args = Files.writeString(tmp.resolve("bad.txt"), "# the run\npoints.npy\n--out \"my results\n-q\n");
        Cli.run("hdbscan", "@" + args).assertError("@" + args + " line 3", "a quote is not closed");
        assertFalse(Files.exists(tmp.resolve("my results")));
        assertFalse(Files.exists(Path.of("my results")));
        // inside a file named by a file
        Path outer = Files.writeString(tmp.resolve("outer.txt"), "hdbscan @" + args + "\n");
        Cli.run("@" + outer).assertError("@" + args + " line 3");
    }

    @Test
    void quotesCommentsAndEscapesAsPicocliReadsThem() {
        assertEquals(0, ArgumentFiles.unclosedQuote("--out \"my results\" -q\n'a b' c\n"));
        assertEquals(0, ArgumentFiles.unclosedQuote("x # a comment's quote \" is no quote\ny\n"));
        assertEquals(0, ArgumentFiles.unclosedQuote("\"a \\\" b\"\n"), "an escaped quote inside quotes");
        assertEquals(0, ArgumentFiles.unclosedQuote("'#not a comment'\n"));
        assertEquals(0, ArgumentFiles.unclosedQuote("it\"s\" fine\r\n"));
        assertEquals(1, ArgumentFiles.unclosedQuote("\"open"), "open at the end of the file");
        assertEquals(2, ArgumentFiles.unclosedQuote("a\r\nb 'open\r\nc\n"));
        assertEquals(3, ArgumentFiles.unclosedQuote("a\nb\n\"c\nd\"\n"), "a quote ends at its line's end");
    }

    @Test
    void anUnreadableFileIsRefusedAsSuch() throws IOException {
        assumeFalse("root".equals(System.getProperty("user.name")), "root reads every file");
        Path args = Files.writeString(tmp.resolve("secret.txt"), "points.npy --out o\n");
        Files.setPosixFilePermissions(args, PosixFilePermissions.fromString("---------"));
        assumeFalse(Files.isReadable(args), "this file system ignores permissions");
        Cli.run("hdbscan", "@" + args).assertError("@" + args + ": permission denied");
    }

    @Test
    void goodFilesEscapesAndMissingNamesReachPicocliAsBefore() throws IOException {
        Path good = Files.writeString(tmp.resolve("good.txt"), "--version\n");
        assertEquals(null, ArgumentFiles.problem(new String[] {"@" + good, "@@" + tmp.resolve("argsdir"), "@",
            "@" + tmp.resolve("no-such-file")}));
        Files.createDirectory(tmp.resolve("argsdir"));
        assertEquals(null, ArgumentFiles.problem(new String[] {"@@" + tmp.resolve("argsdir")}), "@@NAME is a word");
        // a name no file has stays a word, which the command names
        String err = Cli.run("hdbscan", "@" + tmp.resolve("no-such.npy"), "--out", tmp.resolve("o").toString())
                .assertError("no-such.npy");
        assertTrue(err.contains("no such file") || err.contains("not found") || err.contains("does not exist"), err);
        // a file that names itself is read once, as picocli reads it
        Path self = tmp.resolve("self.txt");
        Files.writeString(self, "--version @" + self + "\n");
        assertEquals(null, ArgumentFiles.problem(new String[] {"@" + self}));
    }
}
