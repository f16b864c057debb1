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
        assertEquals(List.of(HdbscanCommand.class), SylvaCommand.subcommandsFor(new String[] {"hdbscan", "x.npy"}));
        assertEquals(List.of(BenchCommand.class), SylvaCommand.subcommandsFor(new String[] {"bench", "hdbscan"}));
        assertEquals(List.of(VerifyCommand.class), SylvaCommand.subcommandsFor(new String[] {"verify"}));
        for (String[] args : List.of(new String[0], new String[] {"help", "hdbscan"}, new String[] {"hdbscn"},
                new String[] {"--help"}, new String[] {"-h", "hdbscan"}, new String[] {"HDBSCAN"})) {
            assertEquals(SylvaCommand.SUBCOMMANDS, SylvaCommand.subcommandsFor(args), String.join(" ", args));
        }
        assertEquals(11, SylvaCommand.SUBCOMMANDS.size());
        for (Class<?> c : SylvaCommand.SUBCOMMANDS) {
            String name = c.getAnnotation(CommandLine.Command.class).name();
            if (!name.equals("help")) {
                assertEquals(List.of(c), SylvaCommand.subcommandsFor(new String[] {name}), name);
            }
        }
    }

    @Test
    void everyCommandsHelpIsTheFullTreesHelp() {
        for (Class<?> c : SylvaCommand.SUBCOMMANDS) {
            String name = c.getAnnotation(CommandLine.Command.class).name();
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
        for (Class<?> c : SylvaCommand.SUBCOMMANDS) {
            CommandLine.Command command = c.getAnnotation(CommandLine.Command.class);
            String name = command.name();
            // every command a user may run; a hidden one (the Python package's engine) is not offered
            assertEquals(!command.hidden(), listed.contains(name), name + " in: " + r.err());
        }
    }
}
