package org.sylva.bench.hdbscan;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HdbscanBenchTest {
    private static HdbscanBench.Result result(double core, double total) {
        Map<String, Double> times = new LinkedHashMap<>();
        times.put("core distances", core);
        times.put("total", total);
        return new HdbscanBench.Result(2000, 2, 2, "auto", 3, 1, times, times, 1L << 20, 9, 68);
    }

    @Test
    void aSmallFitsStagesPrintToTheMicrosecond() {
        String table = result(0.0017125, 0.0034).table();
        assertTrue(table.contains("core distances   median    0.001713 s"), table);
        assertTrue(table.contains("total            median    0.003400 s"), table);
    }

    @Test
    void aFitOfASecondOrMorePrintsToTheMillisecond() {
        String table = result(1.23456, 2.5).table();
        assertTrue(table.contains("core distances   median     1.235 s"), table);
        assertTrue(table.contains("total            median     2.500 s"), table);
    }
}
