package org.sylva.backend;

import org.sylva.data.InvalidInputException;

/**
 * Chooses the distance backend once, at start-up, the way Lucene's {@code VectorizationProvider} does:
 * the vector backend is loaded reflectively, and only when the incubator module
 * {@code jdk.incubator.vector} is in the boot layer (the JVM was started with
 * {@code --add-modules jdk.incubator.vector}); otherwise, or when loading it fails, the library falls back
 * to the scalar backend and works unchanged. Both give bitwise identical results.
 *
 * <pre>{@code
 * DistanceBackend b = Backends.best();          // simd when available, else scalar
 * DistanceBackend s = Backends.of("scalar");    // "auto" | "scalar" | "simd"
 * }</pre>
 */
public final class Backends {
    private static final DistanceBackend SCALAR = new ScalarBackend();
    private static final DistanceBackend SIMD = loadSimd();

    private Backends() {
    }

    /** The fastest available backend: {@code simd} when the Vector API module is present, else {@code scalar}. */
    public static DistanceBackend best() {
        return SIMD != null ? SIMD : SCALAR;
    }

    /** The plain float64 backend. */
    public static DistanceBackend scalar() {
        return SCALAR;
    }

    /** True when the vector backend could be loaded. */
    public static boolean simdAvailable() {
        return SIMD != null;
    }

    /**
     * The backend named {@code "auto"} (= {@link #best()}), {@code "scalar"} or {@code "simd"} (case
     * ignored). Asking for {@code simd} when it is unavailable is an {@link InvalidInputException} that
     * says how to enable it.
     */
    public static DistanceBackend of(String name) {
        if (name == null) throw new InvalidInputException("backend name is null; use auto, scalar or simd");
        switch (name.trim().toLowerCase(java.util.Locale.ROOT)) {
            case "auto":
                return best();
            case "scalar":
                return SCALAR;
            case "simd":
                if (SIMD == null) {
                    throw new InvalidInputException("backend simd is not available: start the JVM with "
                            + "--add-modules jdk.incubator.vector (or use --backend scalar)");
                }
                return SIMD;
            default:
                throw new InvalidInputException("unknown backend '" + name + "'; use auto, scalar or simd");
        }
    }

    private static DistanceBackend loadSimd() {
        if (ModuleLayer.boot().findModule("jdk.incubator.vector").isEmpty()) return null;
        try {
            Class<?> c = Class.forName("org.sylva.backend.SimdBackend");
            return (DistanceBackend) c.getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            // No usable vector support on this JVM/CPU: the scalar backend gives the same results.
            return null;
        }
    }
}
