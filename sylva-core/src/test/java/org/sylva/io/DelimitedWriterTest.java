package org.sylva.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sylva.data.InvalidInputException;

/** CSV/TSV output: exact text layout, shortest round-trip floats, and reading back through DelimitedReader. */
class DelimitedWriterTest {
    @TempDir
    Path dir;

    @Test
    void layoutOfEachType() throws IOException {
        Path p = dir.resolve("o.csv");
        DelimitedWriter.csv().writeInt32(p, new int[] {3, -1, 0}, 3);
        assertEquals("3\n-1\n0\n", Files.readString(p));
        DelimitedWriter.csv().writeInt64(p, new long[] {Long.MAX_VALUE, 1, 2, 3}, 2, 2);
        assertEquals("9223372036854775807,1\n2,3\n", Files.readString(p));
        DelimitedWriter.tsv().withHeader(List.of("x", "y")).writeFloat32(p, new float[] {0.1f, 1f, Float.NaN, Float.NEGATIVE_INFINITY}, 2, 2);
        assertEquals("x\ty\n0.1\t1.0\nnan\t-inf\n", Files.readString(p));
        DelimitedWriter.csv().writeBool(p, new boolean[] {true, false}, 2);
        assertEquals("1\n0\n", Files.readString(p));
        DelimitedWriter.csv().writeFloat64(p, new double[] {2.5}); // 0-d
        assertEquals("2.5\n", Files.readString(p));
        DelimitedWriter.csv().withHeader(List.of("a,b", "say \"hi\"")).writeInt32(p, new int[] {1, 2}, 1, 2);
        assertEquals("\"a,b\",\"say \"\"hi\"\"\"\n1,2\n", Files.readString(p));
    }

    @Test
    void integerColumnsOfAFloatMatrixAreWrittenAsIntegers() throws IOException {
        Path p = dir.resolve("m.csv");
        double[] m = {407, 12, 0.25, 3,
                      -1, 1e15, 1.0, 2,
                      2.5, Double.NaN, Double.POSITIVE_INFINITY, 0x1p60};
        DelimitedWriter.csv().withIntegerColumns(0, 1, 3).writeFloat64(p, m, 3, 4);
        // whole values without ".0"; a column not named keeps 1.0; a fraction, NaN, inf or a value past 2^53
        // in a named column keeps its usual form
        assertEquals("407,12,0.25,3\n-1,1000000000000000,1.0,2\n2.5,nan,inf,1.152921504606847E18\n",
                Files.readString(p));
        DelimitedWriter.tsv().withHeader(List.of("id")).withIntegerColumns(0).writeFloat32(p, new float[] {7f, -0f}, 2);
        assertEquals("id\n7\n0\n", Files.readString(p));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        DelimitedWriter.csv().withIntegerColumns(1).write(out, NpyArray.ofFloat64(new double[] {1, 2, 3, 4}, 2, 2));
        assertEquals("1.0,2\n3.0,4\n", out.toString(StandardCharsets.UTF_8));
        out.reset();
        DelimitedWriter.csv().withIntegerColumns(0, 5).write(out, NpyArray.ofInt32(new int[] {5, 6}, 2));
        assertEquals("5\n6\n", out.toString(StandardCharsets.UTF_8), "integer arrays and absent columns: unaffected");
    }

    @Test
    void npyArraysIncludingUint8() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        DelimitedWriter.csv().write(out, NpyArray.ofUint8(new byte[] {(byte) 255, 7}, 1, 2));
        assertEquals("255,7\n", out.toString(StandardCharsets.UTF_8));
        Path p = dir.resolve("b.csv");
        DelimitedWriter.forFile("b.csv").write(p, NpyArray.ofBool(new boolean[] {true, false, true}, 3));
        assertEquals("1\n0\n1\n", Files.readString(p));
    }

    @Test
    void floatsRoundTripExactlyThroughText() throws IOException {
        Random r = new Random(3);
        float[] f = new float[3000];
        for (int i = 0; i < f.length; i++) {
            float v;
            do {
                v = Float.intBitsToFloat(r.nextInt());
            } while (!Float.isFinite(v));
            f[i] = v;
        }
        Path p = dir.resolve("f.csv");
        DelimitedWriter.csv().withHeader(List.of("a", "b", "c")).writeFloat32(p, f, 1000, 3);
        NumericTable t = DelimitedReader.forFile("f.csv").read(p);
        assertArrayEquals(f, t.toFloat32(w -> fail(w)));
        assertArrayEquals(new int[] {1000, 3}, t.shape());

        double[] d = new double[500];
        for (int i = 0; i < d.length; i++) d[i] = r.nextGaussian() * Math.pow(10, r.nextInt(40) - 20);
        DelimitedWriter.csv().writeFloat64(p, d, 500);
        List<String> lines = Files.readAllLines(p);
        for (int i = 0; i < d.length; i++) assertEquals(d[i], Double.parseDouble(lines.get(i)));
    }

    @Test
    void refusesRankAboveTwoAndHeaderWidthMismatch() {
        Path p = dir.resolve("x.csv");
        assertThrows(InvalidInputException.class, () -> DelimitedWriter.csv().writeInt32(p, new int[8], 2, 2, 2));
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> DelimitedWriter.csv().withHeader(List.of("a")).writeInt32(p, new int[4], 2, 2));
        assertEquals("header has 1 names but the array has 2 columns", e.getMessage());
        assertEquals(false, Files.exists(p));
    }
}
