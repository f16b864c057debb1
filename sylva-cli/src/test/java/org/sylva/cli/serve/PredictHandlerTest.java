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

    @Test
    void aModelOfAnotherTypeOrShapeIsNamedAsSuch() {
        PredictHandler h = new PredictHandler();
        PointSet fresh = blobs(5, 3);
        WireArray points = WireArray.of("points", fresh.coordinates(), fresh.size(), 3);
        InvalidInputException missing = assertThrows(InvalidInputException.class, () -> h.handle(
                new Frame("predict", Map.of(), List.of(points)), CancellationToken.NEVER));
        assertTrue(missing.getMessage().startsWith("the request has no 'model'"), missing.getMessage());
        InvalidInputException ints = assertThrows(InvalidInputException.class, () -> h.handle(new Frame("predict",
                Map.of(), List.of(WireArray.of("model", new int[] {1, 2, 3}, 3), points)), CancellationToken.NEVER));
        assertEquals("'model' must be the 1-D uint8 bytes an hdbscan request with prediction_data answered; got dtype "
                + "<i4 and shape [3]", ints.getMessage());
        InvalidInputException twoD = assertThrows(InvalidInputException.class, () -> h.handle(new Frame("predict",
                Map.of(), List.of(WireArray.of("model", new byte[4], 2, 2), points)), CancellationToken.NEVER));
        assertTrue(twoD.getMessage().endsWith("got dtype |u1 and shape [2, 2]"), twoD.getMessage());
    }

    /** The engine releases what a handler keeps before a request of another kind. */
    @Test
    @SuppressWarnings("try")   // the session's close() waits for the engine's end, so it may be interrupted
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
        // a client as the protocol asks: each answer read before the next request
        try (EngineServerTest.Session s = new EngineServerTest.Session(Map.of("keep", keeping, "other", other),
                FrameLimits.defaults())) {
            for (String kind : List.of("keep", "keep", "other", "keep")) assertEquals("ok", s.call(kind, Map.of()).kind());
        }
        assertEquals(1, released.get(), "released once: before the request of the other kind");
    }

    private static Frame named(PredictHandler h, String digest, byte[] model, PointSet fresh) {
        List<WireArray> arrays = model == null ? List.of(WireArray.of("points", fresh.coordinates(), fresh.size(), 3))
                : List.of(WireArray.of("model", model, model.length), WireArray.of("points", fresh.coordinates(), fresh.size(), 3));
        return h.handle(new Frame("predict", Map.of("model_sha256", digest), arrays), CancellationToken.NEVER);
    }

    /**
     * A held model named by its SHA-256 alone is answered as if its bytes had come; a digest the engine does
     * not hold is the ModelNotHeld answer (the client then sends the bytes); a digest sent with other bytes is
     * refused.
     */
    @Test
    void aHeldModelIsNamedByItsDigest() {
        PointSet pts = blobs(300, 1), fresh = blobs(50, 2), other = blobs(240, 3);
        byte[] a = model(pts), b = model(other);
        String digestA = PredictHandler.sha256(a), digestB = PredictHandler.sha256(b);
        assertEquals(64, digestA.length());
        PredictHandler h = new PredictHandler();
        // nothing held yet: the digest alone is not enough
        PredictHandler.ModelNotHeldException none = assertThrows(PredictHandler.ModelNotHeldException.class,
                () -> named(h, digestA, null, fresh));
        assertTrue(none.getMessage().contains(digestA), none.getMessage());
        assertEquals(PredictHandler.MODEL_NOT_HELD, ErrorFrames.of(none).params().get("type"));
        Frame sent = named(h, digestA, a, fresh);
        Frame byName = named(h, digestA, null, fresh);
        assertEquals(1, h.parsed());
        assertArrayEquals((int[]) sent.array("labels").data(), (int[]) byName.array("labels").data());
        assertArrayEquals((double[]) sent.array("outlier_scores").data(), (double[]) byName.array("outlier_scores").data());
        // another model's digest, while A is held
        assertThrows(PredictHandler.ModelNotHeldException.class, () -> named(h, digestB, null, fresh));
        // a digest that is not the bytes' is refused, held model or not
        InvalidInputException lie = assertThrows(InvalidInputException.class, () -> named(h, digestB, a, fresh));
        assertTrue(lie.getMessage().contains("SHA-256 " + digestA), lie.getMessage());
        assertThrows(InvalidInputException.class, () -> named(h, digestA, b, fresh));
        assertEquals(1, h.parsed(), "a refused model is not kept");
        named(h, digestB, b, fresh);
        assertThrows(PredictHandler.ModelNotHeldException.class, () -> named(h, digestA, null, fresh));
        h.release();
        assertThrows(PredictHandler.ModelNotHeldException.class, () -> named(h, digestB, null, fresh));
        // only lower-case hex of at most 64 characters is a digest
        for (String bad : new String[] {"", digestA.toUpperCase(java.util.Locale.ROOT), digestA + "0", "zz"}) {
            assertThrows(InvalidInputException.class, () -> named(h, bad, a, fresh), bad);
        }
    }
}
