package org.sylva.bench.hdbscan;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.sylva.data.PointSet;
import org.sylva.demo.ClipLikeData;
import org.sylva.hdbscan.Hdbscan;
import org.sylva.hdbscan.HdbscanResult;
import org.tribuo.MutableDataset;
import org.tribuo.clustering.ClusterID;
import org.tribuo.clustering.ClusteringFactory;
import org.tribuo.clustering.hdbscan.HdbscanModel;
import org.tribuo.clustering.hdbscan.HdbscanTrainer;
import org.tribuo.impl.ArrayExample;
import org.tribuo.math.distance.L2Distance;
import org.tribuo.math.neighbour.NeighboursQueryFactoryType;
import org.tribuo.provenance.SimpleDataSourceProvenance;

/**
 * Sylva and Tribuo's HDBSCAN (4.3.2, Apache-2.0, the fastest JVM peer we found) on the same generated
 * clip-like data, in one process, one after the other: Sylva's median of 3 fits after a warm-up, and
 * Tribuo's single fit (it takes minutes). Tribuo gets the same {@code min_cluster_size}, {@code k = 20}
 * neighbours, all threads and its brute-force neighbour query (its KD-tree is slower in 61 dimensions).
 *
 * <pre>{@code
 * java --add-modules jdk.incubator.vector -cp sylva-bench/target/benchmarks.jar \
 *     org.sylva.bench.hdbscan.PeerComparison 20000 50000
 * }</pre>
 */
public final class PeerComparison {
    private PeerComparison() {
    }

    public static void main(String[] args) {
        int[] sizes = args.length == 0 ? new int[] {20_000} : java.util.Arrays.stream(args).mapToInt(Integer::parseInt).toArray();
        int threads = Runtime.getRuntime().availableProcessors();
        for (int n : sizes) {
            ClipLikeData data = ClipLikeData.generate(n, 20240L + n);
            Hdbscan h = Hdbscan.builder().minClusterSize(20).minSamples(20).threads(threads).build();
            HdbscanBench.Result s = HdbscanBench.run(data.points(), h, 3, 1);
            HdbscanResult sr = h.fit(data.points());
            long t0 = System.nanoTime();
            int[] tribuoLabels = tribuo(data.points(), 20, 20, threads);
            double tribuoSeconds = (System.nanoTime() - t0) / 1e9;
            int tribuoClusters = (int) java.util.Arrays.stream(tribuoLabels).filter(l -> l > 0).distinct().count();
            System.out.printf(Locale.ROOT, "n=%d threads=%d  sylva median %.3f s (min %.3f s, %d clusters)  "
                    + "tribuo %.1f s (%d clusters)  ratio %.0fx%n", n, threads, s.medianSeconds().get("total"),
                    s.minSeconds().get("total"), sr.clusterCount(), tribuoSeconds, tribuoClusters,
                    tribuoSeconds / s.medianSeconds().get("total"));
        }
    }

    /** Tribuo's cluster id per point (0 = noise in Tribuo's numbering). */
    static int[] tribuo(PointSet points, int minClusterSize, int k, int threads) {
        ClusteringFactory factory = new ClusteringFactory();
        MutableDataset<ClusterID> ds = new MutableDataset<>(new SimpleDataSourceProvenance("clip-like", factory), factory);
        int d = points.dimensions();
        String[] names = new String[d];
        for (int j = 0; j < d; j++) names[j] = String.format(Locale.ROOT, "s%02d", j);
        List<ArrayExample<ClusterID>> rows = new ArrayList<>(points.size());
        for (int i = 0; i < points.size(); i++) {
            double[] v = new double[d];
            for (int j = 0; j < d; j++) v[j] = points.get(i, j);
            rows.add(new ArrayExample<>(ClusteringFactory.UNASSIGNED_CLUSTER_ID, names, v));
        }
        ds.addAll(rows);
        HdbscanTrainer trainer = new HdbscanTrainer(minClusterSize, new L2Distance(), k, threads,
                NeighboursQueryFactoryType.BRUTE_FORCE);
        HdbscanModel model = trainer.train(ds);
        List<Integer> labels = model.getClusterLabels();
        int[] out = new int[labels.size()];
        for (int i = 0; i < out.length; i++) out[i] = labels.get(i);
        return out;
    }
}
