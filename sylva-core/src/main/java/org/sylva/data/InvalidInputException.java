package org.sylva.data;

/**
 * Thrown when input data or parameters are unusable: NaN coordinates, wrong shapes, bad batch ids,
 * impossible parameters. The message names the problem precisely (row, column, parameter, file), so
 * that a command-line front end can print it as the one line a user sees.
 *
 * <pre>{@code
 * try { PointSet.of(3, 2, coords); } catch (InvalidInputException e) { System.err.println(e.getMessage()); }
 * }</pre>
 */
public class InvalidInputException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public InvalidInputException(String message) {
        super(message);
    }

    public InvalidInputException(String message, Throwable cause) {
        super(message, cause);
    }
}
