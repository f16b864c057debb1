package org.sylva.cli.serve;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sylva.data.InvalidInputException;
import org.sylva.data.PointSet;
import org.sylva.hdbscan.Hdbscan;
import org.sylva.hdbscan.predict.HdbscanModel;
import org.sylva.progress.CancellationToken;

/**
 * The predict handler's last model: a request with the same model bytes reuses the parsed model (and its
 * index), with the same answers; other bytes, or the same array changed after it was sent, are parsed anew.
 */
class PredictHandlerTest {
    private static PointSet blobs(int n, long seed) {
        java.util.Random r = new java.util.Random(seed);
        float[] x = new float[n * 3];
        for (int i = 0; i < x.length; i++) x[i] = (float) (r.nextGaussian() + (i / 3 % 3) * 6);
        return PointSet.of(n, 3, x);
    }

    private static byte[] model(PointSet pts) {
        return HdbscanModel.of(Hdbscan.builder().minClusterSize(10).build().fit(pts), pts).toBytes();
    }

    private static Frame predict(PredictHandler h, byte[] model, PointSet fresh) {
        return h.handle(new Frame("predict", Map.of(), List.of(WireArray.of("model", model, model.length),
                WireArray.of("points", fresh.coordinates(), fresh.size(), 3))), CancellationToken.NEVER);
    }

    @Test
    void theSameModelBytesReuseTheParsedModel() {
        PointSet pts = blobs(300, 1), fresh = blobs(50, 2), other = blobs(240, 3);
        byte[] a = model(pts), b = model(other);
        PredictHandler h = new PredictHandler();
        Frame first = predict(h, a.clone(), fresh);
        Frame again = predict(h, a.clone(), fresh);
        assertEquals(1, h.parsed(), "the second request's bytes are the first's");
        for (String name : List.of("labels", "connecting_points")) {
            assertArrayEquals((int[]) first.array(name).data(), (int[]) again.array(name).data(), name);
        }
        for (String name : List.of("probabilities", "outlier_scores")) {
            assertArrayEquals((double[]) first.array(name).data(), (double[]) again.array(name).data(), name);
        }
        var expected = HdbscanModel.of(Hdbscan.builder().minClusterSize(10).build().fit(other), other).approximatePredict(fresh);
        assertArrayEquals(expected.labels(), (int[]) predict(h, b, fresh).array("labels").data(), "another model's answers");
        assertEquals(2, h.parsed());
        // the array of the request before, changed after it was sent: parsed anew (and refused: its checksum)
        b[b.length / 2] ^= 1;
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> predict(h, b, fresh));
        assertTrue(e.getMessage().contains("checksum"), e.getMessage());
        b[b.length / 2] ^= 1;
        predict(h, b, fresh);
        assertEquals(2, h.parsed(), "whole again: the same bytes as the last model parsed");
        predict(h, a, fresh);
        assertEquals(3, h.parsed(), "only the last model is kept");
        h.release();
        predict(h, a, fresh);
        assertEquals(4, h.parsed(), "released: parsed again");
    }

    /** The engine releases what a handler keeps before a request of another kind. */
    @Test
    void aRequestOfAnotherKindReleasesTheOthersHandlers() throws Exception {
        java.util.concurrent.atomic.AtomicInteger released = new java.util.concurrent.atomic.AtomicInteger();
        Handler keeping = new Handler() {
            @Override
            public Frame handle(Frame request, CancellationToken cancel) {
                return new Frame("ok", Map.of());
            }

            @Override
            public void release() {
                released.incrementAndGet();
            }
        };
        Handler other = (request, cancel) -> new Frame("ok", Map.of());
        java.io.ByteArrayOutputStream requests = new java.io.ByteArrayOutputStream();
        FrameWriter w = new FrameWriter(requests);
        for (String kind : List.of("keep", "keep", "other", "keep")) w.write(new Frame(kind, Map.of()));
        java.io.ByteArrayOutputStream answers = new java.io.ByteArrayOutputStream();
        EngineServer server = new EngineServer(new java.io.ByteArrayInputStream(requests.toByteArray()), answers,
                Map.of("keep", keeping, "other", other), FrameLimits.defaults(), "test",
                new java.io.PrintWriter(java.io.Writer.nullWriter()), false);
        assertEquals(0, server.run());
        assertEquals(1, released.get(), "released once: before the request of the other kind");
    }
}
