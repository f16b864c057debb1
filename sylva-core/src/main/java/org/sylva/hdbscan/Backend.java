package org.sylva.hdbscan;

import java.util.Locale;

/**
 * Which distance kernels the CPU engine runs. The result never depends on it: every kernel computes
 * bitwise the same distances, so the choice is about speed only.
 * <ul>
 *   <li>{@link #AUTO} (the default): chosen per stage and per input by
 *       {@link org.sylva.hdbscan.engine.StageKernels#choose}: the vector kernel where it pays for its
 *       just-in-time compilation, the scalar kernel for small inputs in a cold process;</li>
 *   <li>{@link #SCALAR}: the scalar kernels everywhere;</li>
 *   <li>{@link #SIMD}: the vector (Vector API) kernels everywhere; refused when they cannot run, with the
 *       reason.</li>
 * </ul>
 *
 * <pre>{@code
 * Hdbscan h = Hdbscan.builder().minClusterSize(20).backend(Backend.SCALAR).build();
 * Backend b = Backend.parse("simd");
 * }</pre>
 */
public enum Backend {
    AUTO, SCALAR, SIMD;

    /** The lower-case name used on the command line and in summaries: {@code auto}, {@code scalar}, {@code simd}. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The backend named {@code s} (case ignored), or an {@code InvalidInputException} naming the parameter. */
    public static Backend parse(String s) {
        if (s != null) {
            for (Backend b : values()) {
                if (b.id().equals(s.trim().toLowerCase(Locale.ROOT))) return b;
            }
        }
        throw org.sylva.data.InvalidInputException.forParameter("backend",
                "backend must be auto, scalar or simd; got " + s);
    }

    @Override
    public String toString() {
        return id();
    }
}
