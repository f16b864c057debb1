package org.sylva.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The command models declared in code ({@link CommandModel}) behave as picocli's annotations did: a missing
 * positional parameter is named before any missing option, every command answers {@code -h} and {@code -V},
 * options shared through a superclass come first, and a value that is no path is a usage error.
 */
class CommandModelTest {
    @Test
    void aMissingPositionalParameterIsNamed() {
        for (List<String> c : List.of(List.of("hdbscan", "'INPUT'"), List.of("cut", "'MODEL'"),
                List.of("reselect", "'MODEL'"), List.of("balltree", "'INPUT'"), List.of("verify", "'DIR'"),
                List.of("predict", "'MODEL', 'NEW'"))) {
            // hdbscan's INPUT... (one or more) is named together with the missing --out
            Cli.run(c.get(0)).assertError(c.get(0).equals("hdbscan") ? "Missing required options and parameters"
                    : "Missing required parameter", c.get(1), "sylva " + c.get(0) + " --help");
        }
        Cli.run("bench", "predict").assertError("Missing required parameters: 'MODEL', 'FILE'");
        // a parameter of arity 0..1 may be left out: the command itself says what it needs
        Cli.run("bench", "hdbscan").assertError("give a FILE or --generate N");
    }

    @Test
    void everyCommandAnswersHelpAndVersion() {
        String version = Cli.run("--version").assertOk().out();
        assertTrue(version.startsWith("sylva "), version);
        for (SylvaCommand.Subcommand c : SylvaCommand.SUBCOMMANDS) {
            if (c.name().equals("help")) continue;
            for (String v : List.of("-V", "--version")) {
                String out = Cli.run(c.name(), v).assertOk().out();
                assertEquals(version.lines().findFirst(), out.lines().findFirst(), c.name() + " " + v);
            }
            assertTrue(Cli.run(c.name(), "-h").assertOk().out().contains("Usage: sylva " + c.name()), c.name());
        }
        for (String sub : List.of("hdbscan", "balltree", "predict")) {
            assertTrue(Cli.run("bench", sub, "-V").assertOk().out().startsWith("sylva "), sub);
        }
    }

    @Test
    void optionsOfASuperclassComeFirst() {
        List<String> lines = Cli.run("hdbscan", "--help").assertOk().out().lines().toList();
        int quiet = optionLine(lines, "-q, --quiet"), verbose = optionLine(lines, "-v, --verbose");
        int threads = optionLine(lines, "--threads=T"), help = optionLine(lines, "-h, --help");
        int version = optionLine(lines, "-V, --version");
        assertTrue(quiet >= 0 && quiet < verbose && verbose < threads && threads < help && help < version,
                String.join("\n", lines));
    }

    /** The line of the options list that starts with {@code option}, or -1. */
    private static int optionLine(List<String> lines, String option) {
        for (int i = 0; i < lines.size(); i++) if (lines.get(i).strip().startsWith(option)) return i;
        return -1;
    }

    @Test
    void aValueThatIsNoPathIsAUsageError() {
        String line = Cli.run("verify", "a\0b").assertError("'a", "is not a path here");
        assertFalse(line.contains("InvalidPathException"), line);
    }
}
