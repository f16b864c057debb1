package org.sylva.kernels;

/**
 * Distances under a coordinate metric other than the HDBSCAN index's squared Euclidean one, from a few query
 * rows to every position of a run of blocks of {@link BlockedRows}: the work of the exact brute-force engine
 * (core distances, Prim's rounds) and of the scans that measure new points against fitted ones. Which
 * metric is a {@link Form}; what a caller does with the values stays in the caller, in code shared by both
 * implementations, so a decision never depends on the kernel.
 *
 * <p><b>Exactness contract.</b> Every value is bitwise the reference arithmetic of its form, in float64,
 * {@code j = 0 .. d-1} in order, a multiply then an add where there is one (no fused multiply-add):
 * <ul>
 *   <li>{@link Form#EUCLIDEAN}: {@code t = q_j - x_j; s = s + t * t}, then {@code sqrt(s)};</li>
 *   <li>{@link Form#MANHATTAN}: {@code s = s + |q_j - x_j|};</li>
 *   <li>{@link Form#CHEBYSHEV}: {@code s = max(s, |q_j - x_j|)};</li>
 *   <li>{@link Form#COSINE} (rows already divided by their norms): {@code s = s + q_j * x_j}, then
 *       {@code min(max(1 - s, 0), 2)};</li>
 * </ul>
 * each starting from {@code s = 0}. Implementations gain speed by computing many pairs at once (the vector
 * one: one pair per lane), never by reordering or fusing a sum.
 *
 * <pre>{@code
 * MetricKernel k = KernelProvider.get().bestMetric();
 * BlockedRows rows = BlockedRows.of(x, 0, n, d, k.blockWidth());
 * double[] out = new double[2 * rows.blockCount() * k.blockWidth()];
 * k.distances(MetricKernel.Form.MANHATTAN, x, new int[] {0, d}, 2, rows, 0, rows.blockCount(), out);
 * }</pre>
 */
public interface MetricKernel {
    /** The most query rows one call takes. */
    int MAX_QUERIES = 4;

    /** The arithmetic of one metric (see the exactness contract above). */
    enum Form { EUCLIDEAN, MANHATTAN, CHEBYSHEV, COSINE }

    /** A short name: {@code "scalar"} or {@code "simd"}. */
    String name();

    /** Positions per block of the {@link BlockedRows} this kernel reads best (the vector one reads only it). */
    int blockWidth();

    /**
     * The distances from the query rows {@code q[offsets[r] .. offsets[r] + d)}, {@code r < nq <=}
     * {@link #MAX_QUERIES}, to every position of the blocks {@code blockFrom .. blockTo - 1} of {@code rows}:
     * {@code out[r * stride + (p - blockFrom * W)]}, {@code stride = (blockTo - blockFrom) * W}. Padding
     * positions get some value that callers must ignore.
     */
    void distances(Form form, double[] q, int[] offsets, int nq, BlockedRows rows, int blockFrom, int blockTo,
                   double[] out);
}
