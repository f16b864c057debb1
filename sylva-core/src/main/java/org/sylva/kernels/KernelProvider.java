package org.sylva.kernels;

import java.util.Locale;
import org.sylva.data.InvalidInputException;

/**
 * The one place that decides which implementation of each kernel runs, the way Lucene's
 * {@code VectorizationProvider} does. Every kernel has a scalar twin that is always available and gives
 * bitwise the same results; the vector (Vector API) implementation of a kernel is used when
 * <ol>
 *   <li>the switch allows it: the system property {@value #PROPERTY} is {@code auto} (the default) or
 *       {@code vector}; {@code scalar} forces every scalar twin;</li>
 *   <li>the module {@code jdk.incubator.vector} is in the boot layer (the JVM was started with
 *       {@code --add-modules jdk.incubator.vector}, as {@code ./sylva} does);</li>
 *   <li>the vector class loads and finds the vector shape it needs; the ball tree's vector kernels also
 *       pass a self-test against their scalar twins (the distance kernel's equality with its twin is
 *       a property of its arithmetic, checked by the tests).</li>
 * </ol>
 * Each vector kernel is loaded lazily, once per JVM, at its first use. A failure is never silent: the
 * reason is kept ({@link #describe()}, printed by {@code sylva --version --verbose}) and logged once at
 * {@code WARNING} on the logger {@code org.sylva.kernels} when the module was present (a missing module
 * is the documented default and logged at {@code DEBUG} only). Callers never see {@code null}.
 *
 * <pre>{@code
 * KernelProvider k = KernelProvider.get();
 * DistanceKernel dist = k.distance("auto");            // "auto" | "scalar" | "simd"
 * PartitionKernel part = k.partition(true);            // vector where usable, else the scalar twin
 * MetricKernel metric = k.bestMetric();                // manhattan, chebyshev, cosine: vector where usable
 * System.out.println(k.describe());                     // which implementation runs, and why
 * }</pre>
 */
public final class KernelProvider {
    /** The switch: {@code auto} (default), {@code scalar} or {@code vector}. */
    public static final String PROPERTY = "sylva.kernels";
    private static final String MODULE = "jdk.incubator.vector";
    private static final KernelProvider INSTANCE = new KernelProvider();

    private final String mode;
    /** Why no vector kernel can run at all (switch or module), or {@code null}. */
    private final String globalReason;
    private final Lazy<DistanceKernel> vectorDistance;
    private final Lazy<PartitionKernel> vectorPartition;
    private final Lazy<LaneSubtrees> vectorLanes;
    private final Lazy<MetricKernel> vectorMetric;
    private final DistanceKernel scalarDistance = new ScalarDistanceKernel();
    private final MetricKernel scalarMetric = new ScalarMetricKernel();
    private final PartitionKernel scalarPartition = new ScalarPartitionKernel();

    private KernelProvider() {
        String m = System.getProperty(PROPERTY, "auto").trim().toLowerCase(Locale.ROOT);
        String reason = null;
        switch (m) {
            case "auto", "vector" -> {
                if (ModuleLayer.boot().findModule(MODULE).isEmpty()) {
                    reason = "module " + MODULE + " is not in the boot layer (start the JVM with --add-modules "
                            + MODULE + ")";
                }
            }
            case "scalar" -> reason = "-D" + PROPERTY + "=scalar";
            default -> {
                reason = "-D" + PROPERTY + "=" + m + " is not auto, scalar or vector; using scalar kernels";
                log(System.Logger.Level.WARNING, "sylva: " + reason);
                m = "scalar";
            }
        }
        this.mode = m;
        this.globalReason = reason;
        if (reason != null && !m.equals("scalar")) {
            log(m.equals("vector") ? System.Logger.Level.WARNING : System.Logger.Level.DEBUG,
                    "sylva: scalar kernels: " + reason);
        }
        boolean demanded = m.equals("vector");
        // the distance kernel computes with fused multiply-add, which without the instruction is a call per lane
        this.vectorDistance = new Lazy<>("distance", "org.sylva.kernels.VectorDistanceKernel", reason,
                ProcessorFeatures::fmaMissing, demanded);
        this.vectorPartition = new Lazy<>("partition", "org.sylva.kernels.VectorPartitionKernel", reason, () -> null,
                demanded);
        this.vectorLanes = new Lazy<>("lane subtrees", "org.sylva.kernels.VectorLaneSubtrees", reason, () -> null,
                demanded);
        this.vectorMetric = new Lazy<>("metric", "org.sylva.kernels.VectorMetricKernel", reason, () -> null, demanded);
    }

    /** Logs on {@code org.sylva.kernels}; the logger is looked up only when there is something to say. */
    private static void log(System.Logger.Level level, String message) {
        System.getLogger("org.sylva.kernels").log(level, message);
    }

    /** The provider of this JVM. */
    public static KernelProvider get() {
        return INSTANCE;
    }

    /** The value of the switch in force: {@code auto}, {@code scalar} or {@code vector}. */
    public String mode() {
        return mode;
    }

    /** True when the vector distance kernel is usable (loads it on first call). */
    public boolean vectorDistanceAvailable() {
        return vectorDistance.get() != null;
    }

    /** True when the ball tree's vector partition kernel is usable (loads it on first call). */
    public boolean vectorPartitionAvailable() {
        return vectorPartition.get() != null;
    }

    /** Why the ball tree's vector partition kernel does not run ({@code null} when it does). */
    public String vectorPartitionUnavailableReason() {
        return vectorPartition.get() == null ? vectorPartition.reason() : null;
    }

    /** The scalar distance kernel (always available). */
    public DistanceKernel scalarDistance() {
        return scalarDistance;
    }

    /** The fastest usable distance kernel: the vector one, else the scalar twin. */
    public DistanceKernel bestDistance() {
        DistanceKernel v = vectorDistance.get();
        return v != null ? v : scalarDistance;
    }

    /** The scalar metric kernel (always available). */
    public MetricKernel scalarMetric() {
        return scalarMetric;
    }

    /** The fastest usable metric kernel: the vector one, else the scalar twin. */
    public MetricKernel bestMetric() {
        MetricKernel v = vectorMetric.get();
        return v != null ? v : scalarMetric;
    }

    /**
     * The distance kernel named {@code "auto"} ({@link #bestDistance()}), {@code "scalar"} or {@code "simd"}
     * (case ignored). Asking for {@code simd} where it is not usable is an {@link InvalidInputException}
     * that says why.
     */
    public DistanceKernel distance(String name) {
        if (name == null) throw InvalidInputException.forParameter("backend", "backend name is null; use auto, scalar or simd");
        switch (name.trim().toLowerCase(Locale.ROOT)) {
            case "auto":
                return bestDistance();
            case "scalar":
                return scalarDistance;
            case "simd":
                DistanceKernel v = vectorDistance.get();
                if (v == null) {
                    throw InvalidInputException.forParameter("backend", "backend simd is not available: "
                            + vectorDistance.reason() + "; use backend scalar");
                }
                return v;
            default:
                throw InvalidInputException.forParameter("backend", "unknown backend '" + name + "'; use auto, scalar or simd");
        }
    }

    /** The partition kernel: the vector one when {@code allowVector} and usable, else the scalar twin. */
    public PartitionKernel partition(boolean allowVector) {
        PartitionKernel v = allowVector ? vectorPartition.get() : null;
        return v != null ? v : scalarPartition;
    }

    /**
     * A new lane-subtree kernel (each instance holds its own buffers: one per thread): the vector one
     * when {@code allowVector} and usable, else the scalar twin.
     */
    public LaneSubtrees newLanes(boolean allowVector) {
        if (allowVector && vectorLanes.get() != null) return vectorLanes.newInstance();
        return new ScalarLaneSubtrees();
    }

    /**
     * One line saying which kernels may run, without loading any vector kernel (for a fast
     * {@code sylva --version}): the switch, and whether the Vector API module is present.
     */
    public String summary() {
        return "kernels: -D" + PROPERTY + "=" + mode + ", "
                + (globalReason == null ? "vector kernels loaded on first use (scalar for small inputs in a fresh JVM)"
                        : "scalar only: " + globalReason);
    }

    /**
     * One line per kernel: which implementation runs and, for a scalar one, why. Loads every vector
     * kernel that is not loaded yet (each runs its self-test once).
     */
    public String describe() {
        return "kernels (-D" + PROPERTY + "=" + mode + "):\n"
                + "  distance:      " + vectorDistance.describe() + "\n"
                + "  partition:     " + vectorPartition.describe() + "\n"
                + "  lane subtrees: " + vectorLanes.describe() + "\n"
                + "  metric:        " + vectorMetric.describe();
    }

    /** A vector kernel loaded on first use; {@code null} value (with a reason) when it cannot run. */
    private static final class Lazy<T> {
        private final String what;
        private final String className;
        private final String blocked;
        /** Why this machine would run the kernel too slowly to use (asked once, on first use), or null. */
        private final java.util.function.Supplier<String> unsuited;
        /** Whether the switch demands the vector kernels: then a refusal is a warning, else a debug line. */
        private final boolean demanded;
        private volatile boolean loaded;
        private T first;
        private java.lang.reflect.Constructor<?> constructor;
        private String reason;

        Lazy(String what, String className, String blocked, java.util.function.Supplier<String> unsuited,
                boolean demanded) {
            this.what = what;
            this.className = className;
            this.blocked = blocked;
            this.unsuited = unsuited;
            this.demanded = demanded;
        }

        T get() {
            if (!loaded) load();
            return first;
        }

        String reason() {
            get();
            return reason;
        }

        @SuppressWarnings("unchecked")
        T newInstance() {
            try {
                return (T) constructor.newInstance();
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("vector " + what + " kernel: a second instance failed", e);
            }
        }

        String describe() {
            T v = get();
            return v != null ? "vector (" + className.substring(className.lastIndexOf('.') + 1) + ")"
                    : "scalar (" + reason + ")";
        }

        @SuppressWarnings("unchecked")
        private synchronized void load() {
            if (loaded) return;
            String slow = blocked == null ? unsuited.get() : null;
            if (blocked != null) {
                reason = blocked;
            } else if (slow != null) {
                reason = "vector " + what + " kernel not used: " + slow;
                log(demanded ? System.Logger.Level.WARNING : System.Logger.Level.DEBUG, "sylva: " + reason
                        + "; using its scalar twin");
            } else {
                boolean hardware = false;   // refused for this machine's vectors (a shape it does not have)
                try {
                    java.lang.reflect.Constructor<?> c = Class.forName(className).getDeclaredConstructor();
                    // The constructor of every vector kernel checks the vector shape and runs its self-test.
                    first = (T) c.newInstance();
                    constructor = c;
                } catch (java.lang.reflect.InvocationTargetException e) {
                    Throwable cause = e.getCause() == null ? e : e.getCause();
                    reason = "vector " + what + " kernel refused: " + cause;
                    hardware = cause instanceof UnsupportedOperationException;
                } catch (ExceptionInInitializerError e) {
                    // A self-test in a static initializer: its own exception says what failed.
                    Throwable cause = e.getCause() == null ? e : e.getCause();
                    reason = "vector " + what + " kernel refused when loaded: " + cause;
                    hardware = cause instanceof UnsupportedOperationException;
                } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
                    reason = "vector " + what + " kernel could not be loaded: " + e;
                }
                // a failed self-test or load is always worth a warning; a machine without the vectors a kernel needs
                // is a fact of that machine, said where asked (--version --verbose, a refused --backend simd)
                if (reason != null) {
                    log(demanded || !hardware ? System.Logger.Level.WARNING : System.Logger.Level.DEBUG,
                            "sylva: " + reason + "; using its scalar twin");
                }
            }
            loaded = true;
        }
    }
}
