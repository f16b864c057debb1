package org.sylva.cli.serve;

import java.util.List;
import java.util.Map;
import org.sylva.data.InvalidInputException;
import org.sylva.hdbscan.hierarchy.DbscanCut;
import org.sylva.progress.CancellationToken;

/**
 * The {@code cut} request: the DBSCAN* clustering at {@code cut_distance} of a spanning tree the client
 * holds ({@code mst}, the {@code (n - 1, 3)} float64 rows {@code [from, to, weight]} an {@code hdbscan}
 * answer gave), points in components of fewer than {@code min_cluster_size} (default 5) noise: the
 * {@code labels} (int32) of scikit-learn's and the {@code hdbscan} package's {@code dbscan_clustering},
 * clusters numbered by their smallest point.
 */
final class CutHandler implements Handler {
    static final List<String> PARAMETERS = List.of("cut_distance", "min_cluster_size");

    @Override
    public Frame handle(Frame request, CancellationToken cancel) {
        Params p = new Params(request.params(), PARAMETERS);
        if (!p.has("cut_distance")) throw InvalidInputException.forParameter("cut_distance", "cut needs 'cut_distance'");
        RequestArrays.only(request, List.of("mst"));
        var tree = RequestArrays.spanningTree(request);
        int[] labels = DbscanCut.labels(tree, p.number("cut_distance", Double.NaN), p.integer("min_cluster_size", 5));
        return new Frame("ok", Map.of(), List.of(WireArray.of("labels", labels, labels.length)));
    }
}
