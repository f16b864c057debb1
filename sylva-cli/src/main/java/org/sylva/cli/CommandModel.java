package org.sylva.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * The picocli model of one command, declared in code: its name and texts, its options and positional
 * parameters (each bound to the command's field by a setter), and last the standard {@code -h, --help} and
 * {@code -V, --version} options, as picocli's {@code mixinStandardHelpOptions} adds them. Picocli reads the
 * same model from annotations by reflection, and a fresh JVM pays for that on every run: each annotation
 * type's proxy class is generated at run time, which JDK 25's start-up cache cannot keep (BENCHMARKS.md,
 * "Cold runs: the command line declared in code"). Parsing, usage texts and error messages stay picocli's.
 *
 * <pre>{@code
 * CommandModel m = new CommandModel("cut", this).unsorted().header("Cut a saved model's tree at a distance.");
 * m.parameter(Path.class, v -> model = v).index("0").paramLabel("MODEL").description("A model file.");
 * m.option(double.class, v -> distance = v, "--distance").paramLabel("D").required(true);
 * spec = m.spec();   // for new CommandLine(spec), or a parent's addSubcommand
 * }</pre>
 */
final class CommandModel {
    private final CommandSpec spec;
    private final List<OptionSpec.Builder> options = new ArrayList<>();
    private final List<PositionalParamSpec.Builder> parameters = new ArrayList<>();
    private final List<CommandSpec> subcommands = new ArrayList<>();

    /** The model of command {@code name}, whose {@code call} or {@code run} method picocli runs on {@code command}. */
    CommandModel(String name, Object command) {
        spec = CommandSpec.wrapWithoutInspection(command).name(name);
        spec.versionProvider(new SylvaCommand.Version());
    }

    /** The usage text's header lines (shown in the command list of the parent's usage too). */
    CommandModel header(String... lines) {
        spec.usageMessage().header(lines);
        return this;
    }

    /** The usage text's description paragraphs. */
    CommandModel description(String... lines) {
        spec.usageMessage().description(lines);
        return this;
    }

    /** The usage text's footer lines (examples, exit statuses). */
    CommandModel footer(String... lines) {
        spec.usageMessage().footer(lines);
        return this;
    }

    /** Options listed in the order declared, not by name. */
    CommandModel unsorted() {
        spec.usageMessage().sortOptions(false);
        return this;
    }

    /** Left out of the parent's command list (a command for programs, not users). */
    CommandModel hidden() {
        spec.usageMessage().hidden(true);
        return this;
    }

    /**
     * Adds the option named {@code names} whose values of {@code type} go to {@code setter}; set its texts on the
     * result.
     */
    <T> OptionSpec.Builder option(Class<T> type, Consumer<? super T> setter, String... names) {
        Binding<T> binding = new Binding<>(setter);
        OptionSpec.Builder b = OptionSpec.builder(names).type(type).setter(binding).getter(binding)
                .hasInitialValue(false);
        options.add(b);
        return b;
    }

    /**
     * Adds a positional parameter whose values of {@code type} go to {@code setter}; set its index and texts on
     * the result. It takes one value, and is required, unless its arity is set to allow none ({@code "0..1"}).
     */
    <T> PositionalParamSpec.Builder parameter(Class<T> type, Consumer<? super T> setter) {
        Binding<T> binding = new Binding<>(setter);
        PositionalParamSpec.Builder b = PositionalParamSpec.builder().type(type).arity("1").setter(binding)
                .getter(binding).hasInitialValue(false);
        parameters.add(b);
        return b;
    }

    /** Adds the command of {@code sub}'s model (its name is the model's). */
    CommandModel subcommand(CommandSpec sub) {
        subcommands.add(sub);
        return this;
    }

    /**
     * The finished model: the options in the order declared, then the help and version options. A command
     * object is fresh for each run, so no option has an initial value to restore between parses.
     */
    CommandSpec spec() {
        for (PositionalParamSpec.Builder b : parameters) spec.addPositional(b.required(b.arity().min() > 0).build());
        for (OptionSpec.Builder b : options) spec.addOption(b.build());
        spec.addOption(OptionSpec.builder("-h", "--help").usageHelp(true)
                .description("Show this help message and exit.").build());
        spec.addOption(OptionSpec.builder("-V", "--version").versionHelp(true)
                .description("Print version information and exit.").build());
        for (CommandSpec sub : subcommands) spec.addSubcommand(sub.name(), sub);
        return spec;
    }

    /** Hands each value to the field's setter and keeps the last one, which picocli reads back when tracing. */
    private static final class Binding<T> implements CommandLine.Model.ISetter, CommandLine.Model.IGetter {
        private final Consumer<? super T> setter;
        private Object value;

        Binding(Consumer<? super T> setter) {
            this.setter = setter;
        }

        @Override
        @SuppressWarnings("unchecked")
        public <V> V set(V v) {
            Object old = value;
            setter.accept((T) v);
            value = v;
            return (V) old;
        }

        @Override
        @SuppressWarnings("unchecked")
        public <V> V get() {
            return (V) value;
        }
    }
}
