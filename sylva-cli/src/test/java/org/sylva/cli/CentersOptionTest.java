package org.sylva.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sylva.data.PointSet;
import org.sylva.hdbscan.quality.CenterKind;
import org.sylva.hdbscan.quality.ClusterCenters;
import org.sylva.io.Npy;
import org.sylva.io.NpyArray;
import org.sylva.io.ResultFolder;

/**
 * {@code sylva hdbscan --centers}: the files hold the library's centres of the written labels and
 * probabilities (clusters x coordinates), only the kinds asked for; a later run without the option
 * removes them as stale; {@code --json} and the run record name the kind; a bad kind is refused before anything is written, naming the option.
 */
class CentersOptionTest {
    @Test
    void writesTheLibrarysCentresOfTheWrittenLabels(@TempDir Path tmp) throws IOException {
        PointSet p = TestData.clips(300);
        Path in = TestData.writeNpy(p, tmp.resolve("clips.npy"));
        Path out = tmp.resolve("out");
        Cli.Result said = Cli.run("hdbscan", in.toString(), "--min-cluster-size", "10", "--out", out.toString(),
                "--centers", "BOTH", "--threads", "2", "--json");
        said.assertOk();
        assertTrue(said.out().contains("\"centers\": \"both\""), said.out());
        assertEquals("both", ResultFolder.verify(out).manifest().run().get("options") instanceof Map<?, ?> o
                ? o.get("centers") : null, "the run record names the centres asked for");
        int[] labels = Npy.read(out.resolve("labels.npy")).toInt32();
        double[] prob = Npy.read(out.resolve("probabilities.npy")).toFloat64();
        ClusterCenters want = ClusterCenters.of(p, labels, prob, CenterKind.BOTH);
        NpyArray centroids = Npy.read(out.resolve("centroids.npy"));
        NpyArray medoids = Npy.read(out.resolve("medoids.npy"));
        assertArrayEquals(new int[] {want.clusters(), p.dimensions()}, centroids.shape());
        assertTrue(want.clusters() > 1, "clusters: " + want.clusters());
        assertArrayEquals(want.centroids(), centroids.toFloat64());
        assertArrayEquals(want.medoids(), medoids.toFloat64());

        Cli.run("hdbscan", in.toString(), "--min-cluster-size", "10", "--out", out.toString(), "--centers", "centroid",
                "--threads", "2").assertOk();
        assertTrue(Files.exists(out.resolve("centroids.npy")));
        assertFalse(Files.exists(out.resolve("medoids.npy")), "medoids of the earlier run are stale");
        said = Cli.run("hdbscan", in.toString(), "--min-cluster-size", "10", "--out", out.toString(), "--threads", "2",
                "--json");
        said.assertOk();
        assertTrue(said.out().contains("\"centers\": null"), said.out());
        assertFalse(Files.exists(out.resolve("centroids.npy")), "centroids of the earlier run are stale");
    }

    @Test
    void aBadKindIsRefusedNamingTheOption(@TempDir Path tmp) throws IOException {
        Path in = TestData.writeNpy(TestData.clips(50), tmp.resolve("clips.npy"));
        Path out = tmp.resolve("out");
        Cli.run("hdbscan", in.toString(), "--out", out.toString(), "--centers", "mean").assertError("--centers",
                "centroid, medoid or both");
        assertFalse(Files.exists(out.resolve("labels.npy")));
    }
}
