package org.sylva;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sylva.balltree.BallTree;
import org.sylva.balltree.BallTreeBuilder;
import org.sylva.data.PointSet;
import org.sylva.demo.ClipLikeData;
import org.sylva.hdbscan.Hdbscan;
import org.sylva.hdbscan.HdbscanResult;
import org.sylva.hdbscan.hierarchy.SelectionMethod;
import org.sylva.hdbscan.metric.DistanceGraph;
import org.sylva.hdbscan.metric.Metric;
import org.sylva.hdbscan.predict.HdbscanModel;
import org.sylva.hdbscan.predict.Membership;
import org.sylva.hdbscan.predict.Prediction;
import org.sylva.hdbscan.quality.CenterKind;
import org.sylva.hdbscan.quality.ClusterCenters;
import org.sylva.hdbscan.quality.Validity;

/** The Java examples of README.md, as written there, so that they keep compiling and working. */
class ReadmeExamplesTest {
    @Test
    void hdbscanExample() {
        PointSet generated = ClipLikeData.generate(2000, 1).points();
        int n = generated.size();
        float[] coords = generated.coordinates();

        PointSet clips = PointSet.of(n, 61, coords);            // n x 61 float32, row-major
        HdbscanResult r = Hdbscan.builder()
                .minClusterSize(20)                              // sklearn's names and defaults
                .minSamples(20)                                  // counts the point itself, as sklearn does
                .build()
                .fit(clips);
        int[] labels = r.labels();                               // -1 = noise
        double[] p = r.probabilities();
        double[] glosh = r.outlierScores();

        HdbscanResult leaf = r.reselect(r.parameters().toBuilder()
                .clusterSelectionMethod(SelectionMethod.LEAF).build());

        assertEquals(n, labels.length);
        assertEquals(n, p.length);
        assertEquals(n, glosh.length);
        assertTrue(leaf.clusterCount() >= r.clusterCount());
    }

    @Test
    void sparseGraphExample() {
        // the 10 nearest of each of 300 points on a line (itself included), both directions stored
        int n = 300;
        int[] indptr = new int[n + 1];
        java.util.List<Integer> cols = new java.util.ArrayList<>();
        java.util.List<Double> vals = new java.util.ArrayList<>();
        for (int i = 0; i < n; i++) {
            for (int j = Math.max(0, i - 10); j <= Math.min(n - 1, i + 10); j++) {
                cols.add(j);
                vals.add((double) Math.abs(i - j) * (1 + (Math.min(i, j) / 100) * 0.5));
            }
            indptr[i + 1] = cols.size();
        }
        int[] indices = cols.stream().mapToInt(Integer::intValue).toArray();
        double[] data = vals.stream().mapToDouble(Double::doubleValue).toArray();

        DistanceGraph g = DistanceGraph.ofCsr(n, indptr, indices, data);         // org.sylva.hdbscan.metric, checked
        HdbscanResult r = Hdbscan.builder().metric(Metric.precomputed()).minSamples(10).build().fit(g);

        assertEquals(n, r.labels().length);
        assertEquals(n - 1, r.spanningTree().edges());
    }

    @Test
    void predictExample(@TempDir Path dir) throws IOException {
        PointSet clips = ClipLikeData.generate(2000, 1).points();
        PointSet later = ClipLikeData.generate(300, 2).points();
        HdbscanResult r = Hdbscan.builder().minClusterSize(20).minSamples(20).build().fit(clips);
        Path saved = dir.resolve("clips.model");

        HdbscanModel model = HdbscanModel.of(r, clips);         // r: the fit of clips above
        Prediction p = model.approximatePredict(later);         // labels, probabilities, outlier scores
        Membership soft = model.membershipVector(later);        // later.size() x model.clusterCount()
        model.save(saved);                                      // HdbscanModel.load(path) reads it back

        assertEquals(300, p.size());
        assertEquals(300 * model.clusterCount(), soft.values().length);
        assertEquals(p, HdbscanModel.load(saved).approximatePredict(later));
    }

    @Test
    void ballTreeExample() {
        PointSet points = PointSet.of(5, 2, new float[] {0, 0, 1, 0, 2, 0, 5, 5, 6, 5});
        int[] batchIds = {0, 0, 0, 1, 1};

        BallTree tree = new BallTreeBuilder().threads(2).build(points, batchIds);   // batchIds: int[] or long[]
        int[] slots = tree.indices();        // global row indices in heap layout
        boolean[] real = tree.mask();        // false = padding (always the odd slot of a leaf)
        int[] perm = new BallTreeBuilder().partition(points, batchIds, 4);   // Erwin's rotated-tree partition

        assertEquals(4 + 2, slots.length);
        assertEquals(slots.length, real.length);
        assertEquals(5, perm.length);
    }

    @Test
    void centresValidityAndCutExample() {
        PointSet clips = ClipLikeData.generate(1000, 1).points();
        HdbscanResult r = Hdbscan.builder().minClusterSize(20).minSamples(20).build().fit(clips);
        HdbscanModel model = HdbscanModel.of(r, clips);

        ClusterCenters c = r.centers(clips, CenterKind.BOTH);    // c.centroid(k), c.medoid(k), c.medoidRows()
        double fast = r.relativeValidity();                     // from the spanning tree: cheap
        Validity dbcv = r.validityIndex(clips);                 // dbcv.index(), dbcv.perCluster(); O(m^2) per cluster
        int[] flat = r.dbscanClustering(0.5, 20);               // edges below 0.5 join, components < 20 are noise
        int[] exemplars = model.exemplars(0);                   // rows of cluster 0's exemplars (exemplars_)

        assertEquals(r.clusterCount(), c.clusters());
        assertTrue(fast <= 1 && dbcv.index() <= 1);
        assertEquals(r.clusterCount(), dbcv.perCluster().length);
        assertEquals(clips.size(), flat.length);
        assertTrue(exemplars.length > 0);
    }
}
