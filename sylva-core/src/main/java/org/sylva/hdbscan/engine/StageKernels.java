package org.sylva.hdbscan.engine;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import org.sylva.hdbscan.Backend;
import org.sylva.kernels.DistanceKernel;
import org.sylva.kernels.KernelProvider;

/**
 * The distance kernel each stage of the CPU engine runs for one fit. The choice never changes a result
 * (every kernel computes bitwise the same distances), only the time.
 *
 * <p><b>Why {@code auto} looks at the input and the JVM.</b> The vector kernels are the fastest once
 * the JIT has compiled them, but until then they run interpreted, boxing every vector, many times slower
 * than the scalar loops, and their compilation takes a core for a while. A command-line run is a fresh
 * JVM, so on a small input the vector kernels lose (measured in {@code BENCHMARKS.md}, "Cold runs").
 * That cold cost is paid by whichever stage runs the vector kernel first, so
 * running one stage scalar and the next vector only moves it (measured: no gain); and the scalar
 * spanning tree has no float32 pre-filter, which makes it slow on hard inputs. {@link Backend#AUTO}
 * therefore runs both stages on the scalar kernel in a fresh JVM when the input is small
 * ({@link #coldScalar}: fewer than {@link #VECTOR_MIN_VALUES} coordinates {@code n × d}, or fewer than
 * {@link #SCALAR_MAX_POINTS} points and {@link #SCALAR_MAX_VALUES} coordinates), and on the vector kernel
 * for larger inputs or when the JVM is a long-lived one: the vector
 * kernel has already processed {@link #WARM_VALUES} coordinates in it (compiled by then), or the first
 * fit began {@link #LONG_LIVED_SECONDS} seconds ago or more (a server or a benchmark fitting many inputs,
 * where compiling the vector kernel pays off, gets it for small inputs too). A command-line run fits
 * once, right after start-up. Where the two meet was measured on cold runs (BENCHMARKS.md, "Cold runs:
 * which inputs the scalar kernel wins"): the scalar kernel's cost grows with the pairs it computes, the
 * vector kernel's cold cost is mostly its compilation, so a few thousand points of many coordinates still
 * go faster on the scalar kernel, and many points of few coordinates on the vector one. Both stages read one
 * index, whose block width is that of a kernel every stage can read
 * ({@link DistanceKernel#readsBlockWidth}).
 *
 * <pre>{@code
 * StageKernels k = StageKernels.choose(Backend.AUTO, 1_653, 96);
 * k.coreDistances().name();   // "scalar" in a fresh JVM
 * }</pre>
 *
 * @param coreDistances the kernel of the core-distance stage
 * @param spanningTree  the kernel of the Borůvka stage
 */
public record StageKernels(DistanceKernel coreDistances, DistanceKernel spanningTree) {
    /** Coordinates ({@code n × d}) below which {@code auto} runs the scalar kernel in a cold JVM, whatever {@code n}. */
    public static final long VECTOR_MIN_VALUES = 300_000;
    /** Points below which {@code auto} also runs the scalar kernel in a cold JVM, up to {@link #SCALAR_MAX_VALUES}. */
    public static final int SCALAR_MAX_POINTS = 12_000;
    /** Coordinates up to which fewer than {@link #SCALAR_MAX_POINTS} points run the scalar kernel in a cold JVM. */
    public static final long SCALAR_MAX_VALUES = 700_000;
    /** Coordinates the vector kernel has processed in this JVM after which {@code auto} always uses it. */
    public static final long WARM_VALUES = 8_000_000;
    /** Seconds after the JVM's first fit from which {@code auto} always uses the vector kernel. */
    public static final int LONG_LIVED_SECONDS = 5;

    private static final AtomicLong VECTOR_VALUES = new AtomicLong();
    /** When this class was first used: the JVM's first fit. */
    private static final long FIRST_FIT_NANOS = System.nanoTime();

    public StageKernels {
        Objects.requireNonNull(coreDistances, "coreDistances");
        Objects.requireNonNull(spanningTree, "spanningTree");
    }

    /** The same kernel for both stages. */
    public static StageKernels both(DistanceKernel kernel) {
        return new StageKernels(kernel, kernel);
    }

    /**
     * The kernels {@code backend} runs for {@code n} points of {@code d} coordinates. {@code SIMD} where the
     * vector kernel cannot run is an {@link org.sylva.data.InvalidInputException} naming the reason;
     * {@code AUTO} never fails and does not load the vector kernel for a stage it would not use.
     */
    public static StageKernels choose(Backend backend, int n, int d) {
        KernelProvider kp = KernelProvider.get();
        return switch (Objects.requireNonNull(backend, "backend")) {
            case SCALAR -> both(kp.scalarDistance());
            case SIMD -> both(kp.distance("simd"));
            case AUTO -> {
                yield both(longLived() || !coldScalar(n, d) ? kp.bestDistance() : kp.scalarDistance());
            }
        };
    }

    /**
     * True when a fresh JVM fits {@code n} points of {@code d} coordinates faster on the scalar kernel: fewer
     * than {@link #VECTOR_MIN_VALUES} coordinates, or fewer than {@link #SCALAR_MAX_POINTS} points and
     * {@link #SCALAR_MAX_VALUES} coordinates. The launchers' C1-only runs use the same rule
     * ({@code bin/sylva-java.sh}, kept equal by a test).
     */
    public static boolean coldScalar(long n, long d) {
        long values = n * d;
        return values < VECTOR_MIN_VALUES || (n < SCALAR_MAX_POINTS && values < SCALAR_MAX_VALUES);
    }

    /**
     * True when a fresh JVM searches {@code newPoints} new points among {@code fitted} fitted points of
     * {@code d} coordinates faster on the scalar kernel: such a search costs about what a fit of
     * {@code ceil(sqrt(newPoints × fitted))} points costs (each new point against a share of the fitted ones,
     * as each fitted point in a fit), so that size goes through {@link #coldScalar}. The launchers start
     * such a {@code sylva predict} on C1 only, by the same rule (kept equal by a test).
     *
     * <pre>{@code
     * StageKernels.coldScalarSearch(1_000, 20_000, 61);    // true: as a fit of 4 473 points
     * StageKernels.coldScalarSearch(50_000, 20_000, 61);   // false
     * }</pre>
     */
    public static boolean coldScalarSearch(long newPoints, long fitted, long d) {
        return coldScalar((long) Math.ceil(Math.sqrt((double) newPoints * fitted)), d);
    }

    /**
     * True when this JVM is a long-lived one, whose compiler has had work to compile: the vector kernel has
     * processed {@link #WARM_VALUES} coordinates in it, or its first fit began {@link #LONG_LIVED_SECONDS}
     * seconds ago or more.
     */
    public static boolean longLived() {
        return VECTOR_VALUES.get() >= WARM_VALUES
                || System.nanoTime() - FIRST_FIT_NANOS >= LONG_LIVED_SECONDS * 1_000_000_000L;
    }

    /** The kernel whose block width the shared index is built with: one every stage's kernel can read. */
    public DistanceKernel indexKernel() {
        return coreDistances.readsBlockWidth(spanningTree.blockWidth()) ? spanningTree : coreDistances;
    }

    /** Counts the coordinates a stage just ran through {@code kernel} (the JIT warmth {@code auto} looks at). */
    static void ran(DistanceKernel kernel, int n, int d) {
        if (!kernel.name().equals("scalar")) VECTOR_VALUES.addAndGet((long) n * d);
    }

    /** A short description for summaries: one name when both stages agree, else both. */
    public String describe() {
        return coreDistances == spanningTree ? coreDistances.name()
                : "core distances " + coreDistances.name() + ", spanning tree " + spanningTree.name();
    }
}
