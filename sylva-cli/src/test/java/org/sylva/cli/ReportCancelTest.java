package org.sylva.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sylva.cli.report.HtmlReport;
import org.sylva.data.PointSet;
import org.sylva.hdbscan.Hdbscan;
import org.sylva.hdbscan.HdbscanResult;
import org.sylva.io.ResultFolder;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.CancelledException;

/**
 * Ctrl-C while the report renders is a cancellation, not a report failure: the render stops at its next
 * section, no output of the run is published, and the earlier complete run in the folder stays as it was.
 */
class ReportCancelTest {
    @TempDir
    Path tmp;

    @Test
    void aCancelDuringRenderingPublishesNothingAndKeepsTheEarlierRun() throws IOException {
        PointSet points = TestData.clips(200);
        Hdbscan h = Hdbscan.builder().minClusterSize(10).build();
        HdbscanResult r = h.fit(points);
        Path out = Files.createDirectories(tmp.resolve("out"));
        HdbscanOutputs.write(h, r, out, OutputFormat.NPY, out.resolve("report.html"), points, null, null, "clips.npy",
                null, null, null, java.util.Map.of(), CancellationToken.NEVER, HtmlReport::render);
        String earlierRun = ResultFolder.verify(out).manifest().runId();
        List<String> before = Cli.list(out);

        CancellationToken token = new CancellationToken();
        assertThrows(CancelledException.class, () -> HdbscanOutputs.write(h, r, out, OutputFormat.NPY,
                out.resolve("report.html"), points, null, null, "clips.npy", null, null, null, java.util.Map.of(), token, data -> {
                    token.cancel();   // as Ctrl-C would, once rendering has begun
                    return HtmlReport.render(data, token);
                }));
        assertEquals(before, Cli.list(out), "no temporary, nothing replaced");
        ResultFolder.Verdict v = ResultFolder.verify(out);
        assertEquals(ResultFolder.Status.COMPLETE, v.status(), v::message);
        assertEquals(earlierRun, v.manifest().runId());
    }
}
