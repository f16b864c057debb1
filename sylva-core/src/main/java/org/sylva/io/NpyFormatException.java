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

    public NpyFormatException(String source, String problem) {
        super(source + ": " + problem);
        this.source = source;
        this.problem = problem;
    }

    public NpyFormatException(String source, String problem, Throwable cause) {
        super(source + ": " + problem, cause);
        this.source = source;
        this.problem = problem;
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
