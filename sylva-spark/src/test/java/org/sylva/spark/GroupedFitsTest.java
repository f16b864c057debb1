package org.sylva.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.sylva.hdbscan.Hdbscan;
import org.sylva.hdbscan.HdbscanResult;
import org.sylva.hdbscan.mst.OracleData;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.ProgressListener;

/** One fit per key: each group's outputs equal a separate {@code Hdbscan.fit} of its rows in dataset order. */
class GroupedFitsTest {
    private static final StructType SCHEMA = new StructType()
            .add("id", DataTypes.IntegerType, false)
            .add("channel", DataTypes.StringType, true)
            .add("features", DataTypes.createArrayType(DataTypes.DoubleType, false), true);

    @Test
    void eachGroupEqualsItsOwnFit() {
        OracleData.Array x = OracleData.read(OracleData.dir().resolve("blobs2000noise_X.npy"));
        int n = x.rows(), d = x.cols();
        String[] keys = {"ch0", "ch1", "ch2", null, "ch4"};
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            List<Double> p = new ArrayList<>();
            for (int j = 0; j < d; j++) p.add(x.values()[i * d + j]);
            rows.add(RowFactory.create(i, keys[(i * 7 + i / 3) % keys.length], LocalSpark.seq(p)));
        }
        Dataset<Row> df = LocalSpark.get().createDataFrame(LocalSpark.context().parallelize(rows, 3), SCHEMA);
        List<Row> out = new SylvaHdbscan().setMinClusterSize(8).setMinSamples(4).fitGroups(df, "channel").collectAsList();
        assertEquals(n, out.size());
        for (String key : keys) {
            List<Integer> members = new ArrayList<>();
            for (int i = 0; i < n; i++) if (java.util.Objects.equals(keys[(i * 7 + i / 3) % keys.length], key)) members.add(i);
            double[] coords = new double[members.size() * d];
            for (int m = 0; m < members.size(); m++) System.arraycopy(x.values(), members.get(m) * d, coords, m * d, d);
            HdbscanResult own = Hdbscan.builder().minClusterSize(8).minSamples(4).build()
                    .fit(coords, members.size(), d, ProgressListener.NONE, CancellationToken.NEVER);
            for (int m = 0; m < members.size(); m++) {
                Row r = out.get(members.get(m));
                assertEquals(members.get(m).intValue(), r.getInt(0), "rows come back in dataset order");
                assertEquals(key, r.getString(1));
                assertEquals(own.labels()[m], r.getInt(3), "group " + key + " row " + m);
                assertEquals(own.probabilities()[m], r.getDouble(4));
                assertEquals(own.outlierScores()[m], r.getDouble(5));
            }
        }
    }

    @Test
    void aGroupTooSmallIsNamed() {
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < 30; i++) rows.add(RowFactory.create(i, i < 27 ? "big" : "tiny", LocalSpark.seq(List.of((double) i, i * 0.5))));
        Dataset<Row> df = LocalSpark.get().createDataFrame(rows, SCHEMA);
        Exception e = assertThrows(Exception.class,
                () -> new SylvaHdbscan().setMinClusterSize(5).fitGroups(df, "channel").collectAsList());
        String all = SylvaHdbscanTest.rootMessage(e);
        assertTrue(all.contains("group 'tiny' (3 rows)"), all);
    }
}
