package org.sylva.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sylva.data.InvalidInputException;
import org.sylva.data.PointSet;
import org.sylva.io.RawFloat32Reader.Shape;

/** Raw little-endian float32 with a stated shape: exact size or a message with both numbers. */
class RawFloat32ReaderTest {
    @TempDir
    Path dir;

    @Test
    void shapeParsing() {
        assertEquals(new Shape(1000, 3), Shape.parse("1000,3"));
        assertEquals(new Shape(0, 2), Shape.parse(" 0 , 2 "));
        for (String bad : new String[] {"", "1000", "1000,3,1", "a,3", "-1,3", "1.5,2", "1000x3", "10,", ",3"}) {
            InvalidInputException e = assertThrows(InvalidInputException.class, () -> Shape.parse(bad), bad);
            assertTrue(e.getMessage().contains("expected N,D"), e.getMessage());
        }
        assertTrue(assertThrows(InvalidInputException.class, () -> Shape.parse("10,0")).getMessage()
                .contains("number of columns must be >= 1"));
        assertTrue(assertThrows(InvalidInputException.class, () -> Shape.parse("100000,100000")).getMessage()
                .contains("beyond a Java array's limit"));
        assertTrue(assertThrows(InvalidInputException.class, () -> Shape.parse("99999999999,1")).getMessage()
                .contains("beyond a Java array's limit"));
        for (String huge : new String[] {"9223372036854775807,3", "4611686018427387904,4", "3,99999999999999999999"}) {
            assertTrue(assertThrows(InvalidInputException.class, () -> Shape.parse(huge)).getMessage()
                    .contains("beyond a Java array's limit"), huge);
        }
    }

    @Test
    void readsExactSize() throws IOException {
        Path p = dir.resolve("c.f32");
        Files.write(p, NpyBytes.floats(ByteOrder.LITTLE_ENDIAN, 1, 2, 3, 4, 5, 6));
        PointSet s = RawFloat32Reader.read(p, Shape.parse("3,2"));
        assertEquals(3, s.size());
        assertEquals(2, s.dimensions());
        assertEquals(6f, s.get(2, 1));
        PointSet t = RawFloat32Reader.read(new ByteArrayInputStream(Files.readAllBytes(p)), "-", Shape.parse("2,3"));
        assertEquals(4f, t.get(1, 0));
    }

    @Test
    void wrongSizeNamesBothNumbers() throws IOException {
        Path p = dir.resolve("c.f32");
        Files.write(p, new byte[20]);
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> RawFloat32Reader.read(p, Shape.parse("3,2")));
        assertEquals(p + ": shape 3,2 of float32 needs 24 bytes (3 * 2 * 4) but the input holds 20 bytes", e.getMessage());
        InvalidInputException s = assertThrows(InvalidInputException.class,
                () -> RawFloat32Reader.read(new ByteArrayInputStream(new byte[28]), "-", Shape.parse("3,2")));
        assertEquals("-: shape 3,2 of float32 needs 24 bytes (3 * 2 * 4) but the input holds more than 24 bytes", s.getMessage());
        InvalidInputException big = assertThrows(InvalidInputException.class,
                () -> RawFloat32Reader.read(new ByteArrayInputStream(new byte[28]), "-", Shape.parse("500000000,4")));
        assertTrue(big.getMessage().endsWith("needs 8000000000 bytes (500000000 * 4 * 4) but the input holds 28 bytes"),
                big.getMessage());
    }

    /** A file longer than the shape says is refused as a shorter one is, naming both sizes. */
    @Test
    void aLongerFileIsRefusedToo() throws IOException {
        Path p = dir.resolve("long.f32");
        Files.write(p, new byte[28]);
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> RawFloat32Reader.read(p, Shape.parse("3,2")));
        assertEquals(p + ": shape 3,2 of float32 needs 24 bytes (3 * 2 * 4) but the input holds 28 bytes", e.getMessage());
    }

    /** Counts of 13 to 19 digits beyond a long's range are refused as too large, not as a parse failure. */
    @Test
    void countsBeyondALongAreRefusedAsTooLarge() {
        for (String huge : new String[] {"9999999999999999999,3", "3,9223372036854775808", "9223372036854775808,1"}) {
            InvalidInputException e = assertThrows(InvalidInputException.class, () -> Shape.parse(huge), huge);
            assertTrue(e.getMessage().contains("beyond a Java array's limit"), e.getMessage());
        }
    }

    /** The largest shape holds Integer.MAX_VALUE - 8 values, what a Java array can; one value more is refused. */
    @Test
    void theLargestShapeIsAJavaArraysLimit() {
        assertEquals(Integer.MAX_VALUE - 8, new Shape(Integer.MAX_VALUE - 8, 1).rows());
        assertEquals(Integer.MAX_VALUE - 8, Shape.parse("1," + (Integer.MAX_VALUE - 8)).columns());
        for (String s : new String[] {"2147483640,1", "1,2147483647", "1073741820,2"}) {
            InvalidInputException e = assertThrows(InvalidInputException.class, () -> Shape.parse(s), s);
            assertTrue(e.getMessage().contains("beyond a Java array's limit of 2147483639"), e.getMessage());
        }
    }
}
