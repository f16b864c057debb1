package org.sylva.hdbscan;

import org.sylva.data.InvalidInputException;

/**
 * Notices a caller's float64 coordinate array changing while a fit reads it in place (a large input is
 * not copied). Another thread writing into the array mid-fit breaks the invariants of the index and the
 * spanning tree, which would surface as an internal {@code IllegalStateException}, or silently changes
 * the result; a 64-bit hash of the values' bits taken before the fit and compared after it (or after a
 * failure) turns either into an {@link InvalidInputException} that says what happened. Each hash is one
 * pass over the array, small beside the fit. A change undone before the second hash (a value written and
 * put back) is not seen: the guard catches a caller's mistake, it does not make one safe.
 *
 * <pre>{@code
 * InputGuard guard = InputGuard.of(coords);
 * try { ... fit ... } catch (RuntimeException e) { guard.check(e); throw e; }
 * guard.check(null);
 * }</pre>
 */
final class InputGuard {
    /** For a private copy, which nobody else can write: checks nothing. */
    static final InputGuard NONE = new InputGuard(null, 0);

    private final double[] coords;
    private final long before;

    private InputGuard(double[] coords, long before) {
        this.coords = coords;
        this.before = before;
    }

    /** Takes the hash of {@code coords} now. */
    static InputGuard of(double[] coords) {
        return new InputGuard(coords, hash(coords));
    }

    /**
     * Throws {@link InvalidInputException} (with {@code cause}, may be null) when the array no longer
     * hashes as it did; returns otherwise.
     */
    void check(Throwable cause) {
        if (coords == null || hash(coords) == before) return;
        throw new InvalidInputException("the coordinate array changed during the fit (something wrote into it "
                + "while the fit read it in place); leave it unchanged until fit returns, or fit a copy", cause);
    }

    /** {@link #hash} of {@code c}: the one taken before the fit when {@code c} is the array guarded. */
    long hashOf(double[] c) {
        return c == coords ? before : hash(c);
    }

    /** Bits of every value, mixed in order (position matters: a swap of two values changes it too). */
    static long hash(double[] c) {
        long h = 0x9E3779B97F4A7C15L ^ c.length;
        for (double v : c) {
            h = (h ^ Double.doubleToRawLongBits(v)) * 0xBF58476D1CE4E5B9L;
            h ^= h >>> 31;
        }
        return h;
    }
}
