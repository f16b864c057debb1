package org.sylva.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sylva.data.InvalidInputException;
import org.sylva.data.PointSet;

/** The CLI's single entry point: the reader chosen by name, stdin sniffed, shapes only for raw input. */
class PointReadersTest {
    @TempDir
    Path dir;

    private final List<String> warnings = new ArrayList<>();

    @Test
    void choosesReaderByExtension() throws IOException {
        Path npy = dir.resolve("p.NPY");
        Npy.writeFloat64(npy, new double[] {1, 2, 3, 0.1}, 2, 2);
        PointSet a = PointReaders.readPoints(npy.toString(), Optional.empty(), warnings::add);
        assertEquals(2, a.size());
        assertEquals(1, warnings.size(), "float64 0.1 loses precision");
        assertTrue(warnings.get(0).startsWith(npy + ": 1 of 4 float64 values"), warnings.get(0));

        Path csv = dir.resolve("p.csv");
        Files.writeString(csv, "x,y,z\n1,2,3\n");
        assertEquals(3, PointReaders.readPoints(csv, Optional.empty(), warnings::add).dimensions());
        Path tsv = dir.resolve("p.tsv");
        Files.writeString(tsv, "1\t2\n3\t4\n5\t6\n");
        assertEquals(3, PointReaders.readPoints(tsv, Optional.empty(), warnings::add).size());
        Path txt = dir.resolve("p.txt");
        Files.writeString(txt, "1 2\n");
        assertEquals(2, PointReaders.readPoints(txt, Optional.empty(), warnings::add).dimensions());

        Path raw = dir.resolve("p.f32");
        Files.write(raw, NpyBytes.floats(ByteOrder.LITTLE_ENDIAN, 1, 2, 3, 4));
        PointSet r = PointReaders.readPoints(raw.toString(), Optional.of("4,1"), warnings::add);
        assertEquals(4, r.size());
        // An unknown name without a shape is read as .npy when it carries the magic.
        Path noExt = dir.resolve("points");
        Files.copy(npy, noExt);
        assertEquals(2, PointReaders.readPoints(noExt, Optional.empty(), warnings::add).size());
    }

    @Test
    void refusesShapesForSelfDescribingFilesAndUnknownNames() throws IOException {
        Path npy = dir.resolve("p.npy");
        Npy.writeFloat32(npy, new float[] {1, 2}, 2);
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> PointReaders.readPoints(npy, Optional.of("2,1"), warnings::add));
        assertTrue(e.getMessage().contains("a shape is only for raw float32 input"), e.getMessage());
        Path npz = Files.write(dir.resolve("p.npz"), new byte[] {'P', 'K', 3, 4, 0, 0, 0, 0});   // 8 bytes: 2 x 1 floats
        InvalidInputException z = assertThrows(InvalidInputException.class,
                () -> PointReaders.readPoints(npz, Optional.of("2,1"), warnings::add));
        assertEquals(npz + ": a shape is only for raw float32 input; this .npz states its own", z.getMessage());
        Path bin = dir.resolve("p.bin");
        Files.write(bin, new byte[8]);
        InvalidInputException u = assertThrows(InvalidInputException.class,
                () -> PointReaders.readPoints(bin, Optional.empty(), warnings::add));
        assertTrue(u.getMessage().contains("cannot tell the format from the name"), u.getMessage());
        InvalidInputException m = assertThrows(InvalidInputException.class,
                () -> PointReaders.readPoints(dir.resolve("missing.bin").toString(), Optional.empty(), warnings::add));
        assertTrue(m.getMessage().endsWith("missing.bin: no such file"), m.getMessage());
        InvalidInputException n = assertThrows(InvalidInputException.class,
                () -> PointReaders.readPoints(dir.resolve("missing.npy").toString(), Optional.empty(), warnings::add));
        assertTrue(n.getMessage().endsWith("missing.npy: no such file"), n.getMessage());
        // links the system reports as missing files: say what is wrong with the link
        Path dangling = Files.createSymbolicLink(dir.resolve("dangling.npy"), dir.resolve("gone.npy"));
        Path loop = Files.createSymbolicLink(dir.resolve("loop.csv"), dir.resolve("loop.csv"));
        InvalidInputException dl = assertThrows(InvalidInputException.class,
                () -> PointReaders.readPoints(dangling.toString(), Optional.empty(), warnings::add));
        assertTrue(dl.getMessage().endsWith("dangling.npy: is a symbolic link to " + dir.resolve("gone.npy")
                + ", which does not exist"), dl.getMessage());
        InvalidInputException lp = assertThrows(InvalidInputException.class,
                () -> PointReaders.readPoints(loop.toString(), Optional.empty(), warnings::add));
        assertTrue(lp.getMessage().contains("loop.csv: is a symbolic link that loops"), lp.getMessage());
        InvalidInputException out = assertThrows(InvalidInputException.class,
                () -> AtomicOutput.checkOutputDirectory(Files.createSymbolicLink(dir.resolve("out"), dir.resolve("nowhere")), 0));
        assertTrue(out.getMessage().contains("is a symbolic link to " + dir.resolve("nowhere") + ", which does not exist"),
                out.getMessage());
        InvalidInputException three = assertThrows(InvalidInputException.class, () -> {
            Path cube = dir.resolve("cube.npy");
            Npy.writeFloat32(cube, new float[8], 2, 2, 2);
            PointReaders.readPoints(cube, Optional.empty(), warnings::add);
        });
        assertTrue(three.getMessage().contains("points must be a 2-D array"), three.getMessage());
    }

    @Test
    void standardInputIsSniffed() throws IOException {
        Path npy = dir.resolve("p.npy");
        Npy.writeFloat32(npy, new float[] {1, 2, 3, 4, 5, 6}, 3, 2);
        byte[] npyBytes = Files.readAllBytes(npy);
        assertEquals(3, PointReaders.readPoints("-", Optional.empty(), warnings::add, new ByteArrayInputStream(npyBytes)).size());
        byte[] csv = "a,b\n1,2\n3,4\n".getBytes(StandardCharsets.UTF_8);
        assertEquals(2, PointReaders.readPoints("-", Optional.empty(), warnings::add, new ByteArrayInputStream(csv)).size());
        byte[] raw = NpyBytes.floats(ByteOrder.LITTLE_ENDIAN, 1, 2, 3, 4, 5, 6);
        assertEquals(2, PointReaders.readPoints("-", Optional.of("2,3"), warnings::add, new ByteArrayInputStream(raw)).size());
        NpyFormatException t = assertThrows(NpyFormatException.class, () -> PointReaders.readPoints("-", Optional.empty(),
                warnings::add, new ByteArrayInputStream(java.util.Arrays.copyOf(npyBytes, npyBytes.length - 1))));
        assertTrue(t.getMessage().startsWith("-: truncated data"), t.getMessage());
        assertEquals(List.of(), warnings);
    }

    @Test
    void finitenessIsLeftToTheCaller() throws IOException {
        Path csv = dir.resolve("nan.csv");
        Files.writeString(csv, "1,nan\n");
        PointSet p = PointReaders.readPoints(csv, Optional.empty(), warnings::add);
        assertEquals(1, p.firstNonFinite());
        InvalidInputException e = assertThrows(InvalidInputException.class, p::requireFinite);
        assertTrue(e.getMessage().contains("point 0, coordinate 1"), e.getMessage());
    }
}
