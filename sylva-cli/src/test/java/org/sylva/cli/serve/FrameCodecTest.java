package org.sylva.cli.serve;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Frames written by {@link FrameWriter} read back by {@link FrameReader}, and the reader's bounds. */
class FrameCodecTest {
    static byte[] bytes(Frame... frames) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        FrameWriter w = new FrameWriter(b);
        for (Frame f : frames) w.write(f);
        return b.toByteArray();
    }

    @Test
    void everyDtypeAndShapeRoundTrips() throws Exception {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("n", 3L);
        p.put("x", 0.25);
        p.put("eps", Double.POSITIVE_INFINITY);   // JSON has no infinity: written "inf"
        p.put("none", null);
        p.put("s", "é\"\n");
        // more than one chunk of payload, to cross the buffer's boundary
        double[] big = new double[FrameReader.CHUNK / 8 * 3 + 5];
        for (int i = 0; i < big.length; i++) big[i] = i * 0.5 - 7;
        Frame f = new Frame("ok", p, List.of(
                WireArray.of("f", new float[] {1.5f, -0f, Float.NaN, 3}, 2, 2),
                WireArray.of("d", big, big.length),
                WireArray.of("i", new int[] {-1, 2, Integer.MAX_VALUE}, 3),
                WireArray.of("l", new long[] {Long.MIN_VALUE, 5}, 2, 1),
                WireArray.of("b", new boolean[] {true, false, true}, 3),
                WireArray.of("empty", new double[0], 0, 3)));
        FrameReader r = new FrameReader(new ByteArrayInputStream(bytes(f, f)), FrameLimits.defaults());
        for (int k = 0; k < 2; k++) {
            Frame g = r.read();
            assertEquals("ok", g.kind());
            assertEquals(3L, g.params().get("n"));
            assertEquals(0.25, g.params().get("x"));
            assertEquals("inf", g.params().get("eps"));
            assertTrue(g.params().containsKey("none") && g.params().get("none") == null);
            assertEquals("é\"\n", g.params().get("s"));
            assertArrayEquals(new long[] {2, 2}, g.array("f").shape());
            assertEquals(Float.floatToRawIntBits(-0f), Float.floatToRawIntBits(((float[]) g.array("f").data())[1]));
            assertTrue(Float.isNaN(((float[]) g.array("f").data())[2]));
            assertArrayEquals(big, (double[]) g.array("d").data());
            assertArrayEquals(new int[] {-1, 2, Integer.MAX_VALUE}, (int[]) g.array("i").data());
            assertArrayEquals(new long[] {Long.MIN_VALUE, 5}, (long[]) g.array("l").data());
            assertArrayEquals(new boolean[] {true, false, true}, (boolean[]) g.array("b").data());
            assertArrayEquals(new long[] {0, 3}, g.array("empty").shape());
        }
        assertNull(r.read(), "the end of the stream between frames");
    }

    @Test
    void theLayoutIsTheDocumentedOne() throws Exception {
        byte[] b = bytes(new Frame("cancel", Map.of(), List.of(WireArray.of("x", new int[] {258}, 1))));
        byte[] expected = {'S', 'Y', 'L', 'V', 6, 'c', 'a', 'n', 'c', 'e', 'l', 0, 0, 0, 0, 1,
            1, 'x', 3, '<', 'i', '4', 1, 1, 0, 0, 0, 0, 0, 0, 0, 2, 1, 0, 0};
        assertArrayEquals(expected, b);
    }

    @Test
    void anOversizedArrayIsSkippedAndTheNextFrameRead() throws Exception {
        byte[] b = bytes(new Frame("hdbscan", Map.of("a", 1L), List.of(WireArray.of("points", new double[100], 50, 2),
                WireArray.of("more", new int[10], 10))), new Frame("balltree", Map.of()));
        FrameReader r = new FrameReader(new ByteArrayInputStream(b), FrameLimits.defaults().withMaxFrameBytes(400));
        RefusedFrameException e = assertThrows(RefusedFrameException.class, r::read);
        assertEquals("hdbscan", e.kind());
        assertTrue(e.getMessage().contains("more than 400 bytes"), e.getMessage());
        assertEquals("balltree", r.read().kind(), "the stream is still in step");
    }

    /** One array {@code a} of dtype {@code <f8} and {@code shape}, its payload empty, then a frame {@code y}. */
    private static byte[] emptyArrayFrame(long... shape) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.write(new byte[] {'S', 'Y', 'L', 'V', 1, 'x', 0, 0, 0, 0, 1, 1, 'a', 3, '<', 'f', '8', (byte) shape.length});
        for (long dim : shape) {
            for (int k = 0; k < 8; k++) b.write((int) (dim >>> (8 * k)) & 0xff);
        }
        b.write(bytes(new Frame("y", Map.of())));
        return b.toByteArray();
    }

    @Test
    void aZeroDimensionMakesAnEmptyPayloadHoweverLargeTheOthers() throws Exception {
        long big = 1L << 40;
        for (long[] shape : new long[][] {{big, big, 0}, {0, big, big}, {big, 0, big}}) {
            FrameReader r = new FrameReader(new ByteArrayInputStream(emptyArrayFrame(shape)), FrameLimits.defaults());
            Frame f = r.read();
            assertArrayEquals(shape, f.array("a").shape());
            assertEquals(0, ((double[]) f.array("a").data()).length);
            assertEquals("y", r.read().kind(), "the stream is still in step");
        }
        // beyond 2^63 (unsigned on the wire) with a zero elsewhere: refused, the stream in step; without one, lost
        FrameReader r = new FrameReader(new ByteArrayInputStream(emptyArrayFrame(-1L, 0)), FrameLimits.defaults());
        RefusedFrameException e = assertThrows(RefusedFrameException.class, r::read);
        assertEquals("array 'a' has a dimension beyond 2^63", e.getMessage());
        assertEquals("y", r.read().kind());
        FrameReader lost = new FrameReader(new ByteArrayInputStream(emptyArrayFrame(-1L, 2)), FrameLimits.defaults());
        assertThrows(ProtocolException.class, lost::read);
    }

    @Test
    void kindsAndArrayNamesBeyondAsciiAreRefusedNotReadAlike() throws Exception {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.write(new byte[] {'S', 'Y', 'L', 'V', 2, 'x', (byte) 0xf0, 0, 0, 0, 0, 0});
        // two arrays named by one byte each, 0xf0 and 0xf1: distinct names, not "two arrays named the same"
        b.write(new byte[] {'S', 'Y', 'L', 'V', 1, 'z', 0, 0, 0, 0, 2,
            1, (byte) 0xf0, 3, '<', 'i', '4', 1, 0, 0, 0, 0, 0, 0, 0, 0,
            1, (byte) 0xf1, 3, '<', 'i', '4', 1, 0, 0, 0, 0, 0, 0, 0, 0});
        b.write(bytes(new Frame("y", Map.of())));
        FrameReader r = new FrameReader(new ByteArrayInputStream(b.toByteArray()), FrameLimits.defaults());
        assertEquals("a frame's kind must be ASCII; got 'x?'", assertThrows(RefusedFrameException.class, r::read).getMessage());
        assertEquals("array names must be ASCII; got '?'", assertThrows(RefusedFrameException.class, r::read).getMessage());
        assertEquals("y", r.read().kind(), "the stream is still in step");
    }

    @Test
    void badParametersAreRefusedNotFatal() throws Exception {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.write(new byte[] {'S', 'Y', 'L', 'V', 1, 'x', 3, 0, 0, 0, '{', '1', '}', 0});
        b.write(bytes(new Frame("y", Map.of())));
        FrameReader r = new FrameReader(new ByteArrayInputStream(b.toByteArray()), FrameLimits.defaults());
        RefusedFrameException e = assertThrows(RefusedFrameException.class, r::read);
        assertTrue(e.getMessage().contains("not JSON"), e.getMessage());
        assertEquals("y", r.read().kind());
        // parameters that are not UTF-8 are refused, not read with replacement characters
        b.reset();
        b.write(new byte[] {'S', 'Y', 'L', 'V', 1, 'x', 9, 0, 0, 0, '{', '"', 'a', '"', ':', '"', (byte) 0xff, '"', '}', 0});
        b.write(bytes(new Frame("y", Map.of())));
        FrameReader utf = new FrameReader(new ByteArrayInputStream(b.toByteArray()), FrameLimits.defaults());
        e = assertThrows(RefusedFrameException.class, utf::read);
        assertTrue(e.getMessage().contains("not UTF-8"), e.getMessage());
        assertEquals("y", utf.read().kind());
    }

    @Test
    void bytesThatAreNoFrameAreAProtocolError() {
        FrameReader r = new FrameReader(new ByteArrayInputStream("hello world".getBytes()), FrameLimits.defaults());
        ProtocolException e = assertThrows(ProtocolException.class, r::read);
        assertTrue(e.getMessage().contains("SYLV"), e.getMessage());
        byte[] unknownDtype = {'S', 'Y', 'L', 'V', 1, 'x', 0, 0, 0, 0, 1, 1, 'a', 3, '<', 'u', '2', 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0};
        e = assertThrows(ProtocolException.class,
                () -> new FrameReader(new ByteArrayInputStream(unknownDtype), FrameLimits.defaults()).read());
        assertTrue(e.getMessage().contains("'<u2'"), e.getMessage());
        byte[] truncated = {'S', 'Y', 'L', 'V', 5, 'x'};
        e = assertThrows(ProtocolException.class,
                () -> new FrameReader(new ByteArrayInputStream(truncated), FrameLimits.defaults()).read());
        assertTrue(e.getMessage().contains("ended inside a frame"), e.getMessage());
    }

    @Test
    void jsonTextIsStrictAndBounded() {
        Map<String, Object> m = FrameReader.parameters(" {\"a\": [1, -2.5e3, true, null], \"b\": {\"c\": \"\\u00e9\"}} ");
        List<?> a = (List<?>) m.get("a");
        assertEquals(List.of(1L, -2500.0, true), a.subList(0, 3));
        assertNull(a.get(3));
        assertEquals("é", ((Map<?, ?>) m.get("b")).get("c"));
        for (String bad : List.of("[1]", "{\"a\": 1,}", "{\"a\": NaN}", "{\"a\": 01}", "{\"a\": 1} x", "{\"a\" 1}",
                "{\"a\": 1, \"a\": 2}", "{", "{\"a\": \"\\u+041\"}", "{\"a\": \"\\u00g1\"}", "{\"a\": \"\\ud800\"}",
                "{\"a\": \"\\udc00\\ud800\"}")) {
            assertInstanceOf(IllegalArgumentException.class,
                    assertThrows(IllegalArgumentException.class, () -> FrameReader.parameters(bad), bad));
        }
        // a surrogate pair is one character; an integer beyond 64 bits is kept exactly (an id comes back as sent)
        assertEquals("\ud83d\ude00", FrameReader.parameters("{\"a\": \"\\ud83d\\ude00\"}").get("a"));
        assertEquals(new java.math.BigInteger("100000000000000000000000"),
                FrameReader.parameters("{\"id\": 100000000000000000000000}").get("id"));
        String deep = "{\"a\": " + "[".repeat(100) + "]".repeat(100) + "}";
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> FrameReader.parameters(deep));
        assertTrue(e.getMessage().contains("deeper"), e.getMessage());
    }
}
