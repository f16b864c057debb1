package org.sylva.bench.hdbscan;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Locale;
import org.sylva.data.PointSet;
import org.sylva.demo.ClipLikeData;
import org.sylva.hdbscan.Hdbscan;
import org.sylva.hdbscan.index.PointIndex;
import org.sylva.kernels.DistanceKernel;
import org.sylva.kernels.KernelProvider;
import org.sylva.progress.CancellationToken;

/**
 * Times the point index build and the whole fit on clip-like data (seed {@code 20240 + n},
 * {@code min_cluster_size = min_samples = 20}) with 1 and 2 threads, alternating the thread counts
 * round by round, and prints medians (minimum in brackets); the fits are timed after {@link WarmUp}'s warm-up of
 * at least 10 s in a long-lived process, the index builds after five untimed builds. Where the index has no threads-taking
 * build (code before issue 21's parallel build), both thread counts time the sequential build, so the
 * same harness measures before and after. Run by hand:
 *
 * <pre>{@code
 * java --add-modules jdk.incubator.vector -cp sylva-bench/target/benchmarks.jar \
 *     org.sylva.bench.hdbscan.IndexBuildBench 20000 50000
 * }</pre>
 */
public final class IndexBuildBench {
    private static final int BUILD_ROUNDS = 15;
    private static final int FIT_ROUNDS = 7;
    private static final int[] THREADS = {1, 2};

    private IndexBuildBench() {
    }

    public static void main(String[] args) throws ReflectiveOperationException {
        int[] sizes = args.length == 0 ? new int[] {20_000, 50_000}
                : Arrays.stream(args).mapToInt(Integer::parseInt).toArray();
        DistanceKernel kernel = KernelProvider.get().bestDistance();
        Method threaded = threadedBuild();
        System.out.println("kernel " + kernel.name() + ", threaded build " + (threaded != null));
        for (int n : sizes) {
            PointSet pts = ClipLikeData.generate(n, 20240L + n).points();
            float[] c = pts.coordinates();
            double[] rows = new double[c.length];
            for (int i = 0; i < c.length; i++) rows[i] = c[i];
            int d = pts.dimensions();
            double[][] build = new double[THREADS.length][BUILD_ROUNDS];
            double[][] fit = new double[THREADS.length][FIT_ROUNDS];
            for (int warm = 0; warm < 5; warm++) {
                for (int t : THREADS) build(threaded, rows, n, d, kernel, t);
            }
            for (int r = 0; r < BUILD_ROUNDS; r++) {
                for (int k = 0; k < THREADS.length; k++) {
                    int kk = (r & 1) == 0 ? k : THREADS.length - 1 - k;
                    long t0 = System.nanoTime();
                    PointIndex idx = build(threaded, rows, n, d, kernel, THREADS[kk]);
                    build[kk][r] = (System.nanoTime() - t0) / 1e9;
                    if (idx.size() != n) throw new IllegalStateException("index of " + idx.size() + " points");
                }
            }
            Hdbscan[] h = new Hdbscan[THREADS.length];
            for (int k = 0; k < THREADS.length; k++) {
                h[k] = Hdbscan.builder().minClusterSize(20).minSamples(20).threads(THREADS[k]).build();
                Hdbscan one = h[k];
                // two fits and on until the process is long-lived and 10 s after: the timed fits all make a long-lived
                // process's choices, compiled (WarmUp)
                WarmUp.run(2, 10.0, () -> one.fit(pts));
            }
            for (int r = 0; r < FIT_ROUNDS; r++) {
                for (int k = 0; k < THREADS.length; k++) {
                    int kk = (r & 1) == 0 ? k : THREADS.length - 1 - k;
                    long t0 = System.nanoTime();
                    h[kk].fit(pts);
                    fit[kk][r] = (System.nanoTime() - t0) / 1e9;
                }
            }
            for (int k = 0; k < THREADS.length; k++) {
                System.out.printf(Locale.ROOT, "n=%d d=%d threads=%d index build %.4f s (%.4f), whole fit %.3f s (%.3f)%n",
                        n, d, THREADS[k], median(build[k]), min(build[k]), median(fit[k]), min(fit[k]));
            }
        }
    }

    private static Method threadedBuild() {
        try {
            return PointIndex.class.getMethod("build", double[].class, int.class, int.class, DistanceKernel.class,
                    int.class, CancellationToken.class);
        } catch (NoSuchMethodException e) {
            return null;
        }
    }

    private static PointIndex build(Method threaded, double[] rows, int n, int d, DistanceKernel kernel, int threads)
            throws ReflectiveOperationException {
        if (threaded == null) return PointIndex.build(rows, n, d, kernel);
        return (PointIndex) threaded.invoke(null, rows, n, d, kernel, threads, CancellationToken.NEVER);
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    private static double min(double[] v) {
        return Arrays.stream(v).min().orElse(Double.NaN);
    }
}
