package org.sylva.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The command line registers only the subcommand it names ({@link SylvaCommand#subcommandsFor}), and that
 * changes nothing a user sees: a command's help is the one {@code sylva help COMMAND} prints from the
 * full tree, and a command line that names no known command meets every subcommand.
 */
class SubcommandRegistrationTest {
    @Test
    void aNamedCommandIsRegisteredAloneAnythingElseGetsTheFullTree() {
        assertEquals(List.of("hdbscan"), names(SylvaCommand.subcommandsFor(new String[] {"hdbscan", "x.npy"})));
        assertEquals(List.of("bench"), names(SylvaCommand.subcommandsFor(new String[] {"bench", "hdbscan"})));
        assertEquals(List.of("verify"), names(SylvaCommand.subcommandsFor(new String[] {"verify"})));
        for (String[] args : List.of(new String[0], new String[] {"help", "hdbscan"}, new String[] {"hdbscn"},
                new String[] {"--help"}, new String[] {"-h", "hdbscan"}, new String[] {"HDBSCAN"})) {
            assertEquals(SylvaCommand.SUBCOMMANDS, SylvaCommand.subcommandsFor(args), String.join(" ", args));
        }
        assertEquals(11, SylvaCommand.SUBCOMMANDS.size());
        for (SylvaCommand.Subcommand c : SylvaCommand.SUBCOMMANDS) {
            String name = c.name();
            if (!name.equals("help")) {
                assertEquals(List.of(c), SylvaCommand.subcommandsFor(new String[] {name}), name);
            }
        }
    }

    @Test
    void everyCommandsHelpIsTheFullTreesHelp() {
        for (SylvaCommand.Subcommand c : SylvaCommand.SUBCOMMANDS) {
            String name = c.name();
            if (name.equals("help")) continue;
            String alone = Cli.run(name, "--help").assertOk().out();
            String fromHelp = Cli.run("help", name).assertOk().out();
            assertEquals(fromHelp, alone, name);
            assertTrue(alone.contains("Usage: sylva " + name), alone);
        }
    }

    @Test
    void anUnknownCommandStillListsEveryCommand() {
        Cli.Result r = Cli.run("hdbscn", "x.npy");
        assertEquals(ExitStatus.ERROR, r.code());
        String after = r.err().substring(r.err().indexOf("commands: ") + "commands: ".length());
        java.util.List<String> listed = java.util.List.of(after.substring(0, after.indexOf(';')).split(", "));
        for (SylvaCommand.Subcommand c : SylvaCommand.SUBCOMMANDS) {
            String name = c.name();
            boolean hidden = c.model().apply(CliContext.inProcess(java.io.InputStream.nullInputStream()))
                    .usageMessage().hidden();
            // every command a user may run; a hidden one (the Python package's engine) is not offered
            assertEquals(!hidden, listed.contains(name), name + " in: " + r.err());
        }
    }

    /** Each model made for a subcommand carries the subcommand's name. */
    @Test
    void eachModelIsNamedAsItsSubcommand() {
        for (SylvaCommand.Subcommand c : SylvaCommand.SUBCOMMANDS) {
            assertEquals(c.name(), c.model().apply(CliContext.inProcess(java.io.InputStream.nullInputStream())).name());
        }
    }

    private static List<String> names(List<SylvaCommand.Subcommand> subcommands) {
        return subcommands.stream().map(SylvaCommand.Subcommand::name).toList();
    }
}
