package org.sylva.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.sylva.data.InvalidInputException;
import org.sylva.hdbscan.HdbscanResult;
import org.sylva.hdbscan.mst.OracleData;

/** The model's output-column setters. */
class SylvaHdbscanPersistenceTest {
    private static OracleData.Array data(String name) {
        return OracleData.read(OracleData.dir().resolve(name + "_X.npy"));
    }

    @Test
    void theModelsColumnSettersNameWhatTransformReadsAndWrites() {
        OracleData.Array x = data("blobs500");
        int n = x.rows();
        Dataset<Row> df = LocalSpark.points(x.values(), n, x.cols(), 2);
        SylvaHdbscanModel model = new SylvaHdbscan().fit(df);
        HdbscanResult r = model.result();
        assertSame(model, model.setLabelCol("c").setProbabilityCol("p").setOutlierScoreCol("s").setFeaturesCol("pts"));
        Dataset<Row> renamed = df.withColumnRenamed("features", "pts");
        Dataset<Row> out = model.transform(renamed);
        assertArrayEquals(new String[] {"id", "pts", "c", "p", "s"}, out.columns());
        List<Row> rows = out.collectAsList();
        for (int i = 0; i < n; i++) {
            Row row = rows.get(i);
            assertEquals(i, row.getInt(0));
            assertEquals(r.labels()[i], row.<Integer>getAs("c"));
            assertEquals(r.probabilities()[i], row.<Double>getAs("p"));
            assertEquals(r.outlierScores()[i], row.<Double>getAs("s"));
        }
        InvalidInputException noColumn = assertThrows(InvalidInputException.class, () -> model.transform(df));
        assertTrue(noColumn.getMessage().contains("no column 'pts'"), noColumn.getMessage());
        InvalidInputException taken = assertThrows(InvalidInputException.class,
                () -> model.setFeaturesCol("features").setLabelCol("id").transform(df));
        assertTrue(taken.getMessage().contains("output column 'id' already exists"), taken.getMessage());
        SylvaHdbscanModel copy = model.copy(ParamMap.empty());
        assertNotSame(model, copy);
        assertEquals("id", copy.getOrDefault(copy.labelCol()), "a copy keeps the columns set");
    }
}
