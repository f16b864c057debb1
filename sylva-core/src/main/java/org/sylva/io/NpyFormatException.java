package org.sylva.io;

import org.sylva.data.InvalidInputException;

/**
 * Thrown when a {@code .npy} file cannot be read, or its contents cannot be converted as asked: bad
 * magic bytes, an unsupported version or dtype, a header that is not a valid Python dict literal,
 * a shape that lies about the data, a truncated file, values out of range for the requested type.
 * The message always starts with the file's name ({@link #source()}) followed by the problem
 * ({@link #problem()}), so a command-line front end can print it as the single line a user sees.
 *
 * <pre>{@code
 * try {
 *     NpyArray a = Npy.read(Path.of("points.npy"));
 * } catch (NpyFormatException e) {
 *     System.err.println(e.getMessage());   // "points.npy: truncated data: ..."
 * }
 * }</pre>
 */
public class NpyFormatException extends InvalidInputException {
    private static final long serialVersionUID = 1L;

    private final String source;
    private final String problem;
    /** The descr of a dtype this reader does not take, quoted, where that is the problem; else null. */
    private final String unsupportedDescr;

    public NpyFormatException(String source, String problem) {
        this(source, problem, (String) null);
    }

    public NpyFormatException(String source, String problem, Throwable cause) {
        super(source + ": " + problem, cause);
        this.source = source;
        this.problem = problem;
        this.unsupportedDescr = null;
    }

    /** A file whose dtype ({@code unsupportedDescr}, quoted as the message quotes it) this reader does not take. */
    NpyFormatException(String source, String problem, String unsupportedDescr) {
        super(source + ": " + problem);
        this.source = source;
        this.problem = problem;
        this.unsupportedDescr = unsupportedDescr;
    }

    /**
     * The descr of the file's dtype where the problem is that no reader here takes it, quoted as the message gives it
     * ({@code "'<U1'"}: in quotes, other characters than printable ASCII escaped, cut after 120), so that a caller that
     * wants fewer types (batch ids: integers) can name its own list instead of the reader's.
     */
    public java.util.Optional<String> unsupportedDescr() {
        return java.util.Optional.ofNullable(unsupportedDescr);
    }

    /** The file (or stream) name the problem was found in, e.g. {@code "points.npy"} or {@code "-"}. */
    public String source() {
        return source;
    }

    /** The problem alone, without the file name. */
    public String problem() {
        return problem;
    }
}
