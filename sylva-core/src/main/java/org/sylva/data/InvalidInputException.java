package org.sylva.data;

import java.util.Optional;

/**
 * Thrown when input data or parameters are unusable: NaN coordinates, wrong shapes, bad batch ids,
 * impossible parameters. The message names the problem precisely (row, column, parameter, file), so
 * that a command-line front end can print it as the one line a user sees. An exception about one
 * parameter also carries the parameter's name ({@link #parameter()}, scikit-learn's name where there
 * is one), so that a front end can say which of its own settings to change without parsing the message.
 *
 * <pre>{@code
 * try {
 *     Hdbscan.builder().minClusterSize(1).build();
 * } catch (InvalidInputException e) {
 *     // "min_cluster_size must be at least 2; got 1", parameter "min_cluster_size"
 *     System.err.println(e.getMessage() + e.parameter().map(p -> " (parameter " + p + ")").orElse(""));
 * }
 * }</pre>
 */
public class InvalidInputException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    /** The parameter the problem is about, or null. */
    private final String parameter;

    public InvalidInputException(String message) {
        this(message, null, null);
    }

    public InvalidInputException(String message, Throwable cause) {
        this(message, cause, null);
    }

    private InvalidInputException(String message, Throwable cause, String parameter) {
        super(message, cause);
        this.parameter = parameter;
    }

    /**
     * A bad value of one parameter.
     *
     * @param parameter the parameter's name, as scikit-learn spells it where it has one (e.g.
     *                  {@code "min_cluster_size"}), else as the library's builder does (e.g. {@code "threads"})
     * @param message   the problem, naming the parameter and the value
     */
    public static InvalidInputException forParameter(String parameter, String message) {
        return new InvalidInputException(message, null, java.util.Objects.requireNonNull(parameter, "parameter"));
    }

    /** The parameter whose value is bad, when the problem is about one parameter. */
    public Optional<String> parameter() {
        return Optional.ofNullable(parameter);
    }

    /**
     * This problem with {@code context + ": "} (e.g. the name of the input file) in front of its
     * message; the parameter is kept and this exception becomes the cause.
     */
    public InvalidInputException withContext(String context) {
        String m = getMessage();
        // a reader's message often names its file already: the context replaces that name, never repeats it
        int at = m.indexOf(": ");
        if (at > 0 && context.endsWith(m.substring(0, at))) m = m.substring(at + 2);
        return withMessage(context + ": " + m);
    }

    /** The same kind of problem with {@code message}, this exception its cause (a subclass keeps its kind). */
    protected InvalidInputException withMessage(String message) {
        return new InvalidInputException(message, this, parameter);
    }
}
