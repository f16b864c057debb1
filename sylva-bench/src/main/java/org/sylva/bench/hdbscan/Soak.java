package org.sylva.bench.hdbscan;

import java.util.Locale;
import org.sylva.data.PointSet;
import org.sylva.demo.ClipLikeData;
import org.sylva.hdbscan.Hdbscan;

/**
 * The scale soak: a large clip-like fit, twice, in one JVM whose heap is capped by the
 * caller ({@code -Xmx}), checking that both fits give the identical result and reporting the time and
 * the peak heap in use. Not part of CI (minutes); run by hand:
 *
 * <pre>{@code
 * java -Xmx3g --add-modules jdk.incubator.vector -cp sylva-bench/target/benchmarks.jar \
 *     org.sylva.bench.hdbscan.Soak 500000
 * }</pre>
 */
public final class Soak {
    private Soak() {
    }

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 500_000;
        PointSet pts = ClipLikeData.generate(n, 500240L).points();
        long inputBytes = 4L * pts.size() * pts.dimensions();
        Hdbscan h = Hdbscan.builder().minClusterSize(20).minSamples(20).build();
        System.gc();
        HdbscanBench.Result r = HdbscanBench.run(pts, h, 2, 0);   // two timed fits, compared for identity
        System.out.print(r.table());
        System.out.printf(Locale.ROOT, "input %.0f MiB, peak heap in use %.0f MiB (%.0f MiB beyond the input), -Xmx %.0f MiB%n",
                inputBytes / 1048576.0, r.peakHeapBytes() / 1048576.0, (r.peakHeapBytes() - inputBytes) / 1048576.0,
                Runtime.getRuntime().maxMemory() / 1048576.0);
        System.out.println("the two fits gave identical spanning trees and labels (the harness fails otherwise)");
    }
}
