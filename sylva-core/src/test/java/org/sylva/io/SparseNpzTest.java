package org.sylva.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sylva.data.InvalidInputException;
import org.sylva.progress.CancellationToken;

/**
 * The sparse matrix files of {@code scipy.sparse.save_npz}, written here as scipy writes them (a zip of
 * {@code .npy} arrays, the format a 0-d string): CSR read as it is, CSC as the CSR of the same matrix,
 * compressed or stored, and every fault of the archive refused naming the file and the fault.
 */
class SparseNpzTest {
    @TempDir
    Path dir;

    // the 3 x 4 matrix [[0, 5, 0, 1], [0, 0, 0, 0], [2, 0, 3, 0]]
    private static final int[] CSR_PTR = {0, 2, 2, 4};
    private static final int[] CSR_IND = {1, 3, 0, 2};
    private static final double[] CSR_DATA = {5, 1, 2, 3};
    private static final int[] CSC_PTR = {0, 1, 2, 3, 4};
    private static final int[] CSC_IND = {2, 0, 2, 0};
    private static final double[] CSC_DATA = {2, 5, 3, 1};

    /** A 0-d string array as numpy writes {@code np.array('csr')} ({@code |S3}) or a unicode one ({@code <U3}). */
    static byte[] stringNpy(String s, boolean unicode) {
        String header = "{'descr': '" + (unicode ? "<U" : "|S") + s.length() + "', 'fortran_order': False, 'shape': (), }";
        int total = 10 + header.length() + 1;
        StringBuilder h = new StringBuilder(header);
        while ((total % 64) != 0) {
            h.append(' ');
            total++;
        }
        h.append('\n');
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.write(0x93);
        b.writeBytes("NUMPY".getBytes(StandardCharsets.ISO_8859_1));
        b.write(1);
        b.write(0);
        b.write(h.length() & 0xFF);
        b.write(h.length() >> 8);
        b.writeBytes(h.toString().getBytes(StandardCharsets.ISO_8859_1));
        for (char c : s.toCharArray()) {
            b.write(c);
            if (unicode) b.writeBytes(new byte[3]);
        }
        return b.toByteArray();
    }

    static byte[] npy(NpyArray a) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        Npy.write(b, a);
        return b.toByteArray();
    }

    private Path npz(String name, Map<String, byte[]> entries, boolean compressed) throws IOException {
        Path p = dir.resolve(name);
        try (OutputStream out = Files.newOutputStream(p); ZipOutputStream z = new ZipOutputStream(out)) {
            z.setLevel(compressed ? 6 : 0);   // scipy's compressed=False stores; deflate at level 0 reads the same way
            for (var e : entries.entrySet()) {
                z.putNextEntry(new ZipEntry(e.getKey()));
                z.write(e.getValue());
                z.closeEntry();
            }
        }
        return p;
    }

    private Map<String, byte[]> arrays(String format, int[] ptr, int[] ind, double[] data, long rows, long cols)
            throws IOException {
        Map<String, byte[]> m = new LinkedHashMap<>();
        m.put("indices.npy", npy(NpyArray.ofInt32(ind, ind.length)));
        m.put("indptr.npy", npy(NpyArray.ofInt32(ptr, ptr.length)));
        m.put("format.npy", stringNpy(format, false));
        m.put("shape.npy", npy(NpyArray.ofInt64(new long[] {rows, cols}, 2)));
        m.put("data.npy", npy(NpyArray.ofFloat64(data, data.length)));
        return m;
    }

    private static final double[] DENSE = {0, 5, 0, 1, 0, 0, 0, 0, 2, 0, 3, 0};

    @Test
    void csrAndCscReadAsTheSameCsrMatrix() throws IOException {
        SparseMatrix csr = SparseNpz.read(npz("a.npz", arrays("csr", CSR_PTR, CSR_IND, CSR_DATA, 3, 4), true),
                CancellationToken.NEVER);
        assertEquals(3, csr.rows());
        assertEquals(4, csr.columns());
        assertArrayEquals(CSR_PTR, csr.indptr());
        assertArrayEquals(CSR_IND, csr.indices());
        assertArrayEquals(CSR_DATA, csr.data());
        assertArrayEquals(DENSE, csr.toDense("a.npz"));
        SparseMatrix csc = SparseNpz.read(npz("b.npz", arrays("csc", CSC_PTR, CSC_IND, CSC_DATA, 3, 4), false),
                CancellationToken.NEVER);
        assertArrayEquals(CSR_PTR, csc.indptr());
        assertArrayEquals(CSR_IND, csc.indices());
        assertArrayEquals(CSR_DATA, csc.data());
    }

    @Test
    void aUnicodeFormatAndInt64IndicesAreRead() throws IOException {
        Map<String, byte[]> m = arrays("csr", CSR_PTR, CSR_IND, CSR_DATA, 3, 4);
        m.put("format.npy", stringNpy("csr", true));
        m.put("indices.npy", npy(NpyArray.ofInt64(new long[] {1, 3, 0, 2}, 4)));
        assertArrayEquals(DENSE, SparseNpz.read(npz("u.npz", m, true), CancellationToken.NEVER).toDense("u.npz"));
    }

    @Test
    void toDenseSumsEntriesStoredTwiceAsScipyDoes() {
        SparseMatrix m = new SparseMatrix(1, 2, new int[] {0, 2}, new int[] {1, 1}, new double[] {1.5, 2});
        assertArrayEquals(new double[] {0, 3.5}, m.toDense("x"));
        SparseMatrix bad = new SparseMatrix(1, 2, new int[] {0, 1}, new int[] {2}, new double[] {1});
        assertTrue(assertThrows(InvalidInputException.class, () -> bad.toDense("x.npz")).getMessage()
                .contains("x.npz: row 0 stores column 2, outside [0, 2)"));
    }

    private String refusal(String name, Map<String, byte[]> entries) throws IOException {
        Path p = npz(name, entries, true);
        return assertThrows(InvalidInputException.class, () -> SparseNpz.read(p, CancellationToken.NEVER)).getMessage();
    }

    @Test
    void faultsAreNamed() throws IOException {
        Map<String, byte[]> coo = new LinkedHashMap<>(arrays("coo", CSR_PTR, CSR_IND, CSR_DATA, 3, 4));
        assertTrue(refusal("coo.npz", coo).contains("coo.npz: a sparse matrix in the 'coo' format; Sylva reads 'csr' and 'csc'"));
        Map<String, byte[]> upper = arrays("csr", CSR_PTR, CSR_IND, CSR_DATA, 3, 4);
        upper.put("format.npy", stringNpy("CSR", false));
        assertTrue(refusal("upper.npz", upper).contains("in the 'CSR' format"));
        Map<String, byte[]> nul = arrays("csr", CSR_PTR, CSR_IND, CSR_DATA, 3, 4);
        nul.put("format.npy", stringNpy("csr\u0000x", false));
        assertTrue(refusal("nul.npz", nul).contains("format.npy is not a 0-d string array"));
        Map<String, byte[]> floatShape = arrays("csr", CSR_PTR, CSR_IND, CSR_DATA, 3, 4);
        floatShape.put("shape.npy", npy(NpyArray.ofFloat64(new double[] {3, 4}, 2)));
        assertTrue(refusal("fshape.npz", floatShape).contains("shape.npy must hold two integers; got a float64 array"));
        Map<String, byte[]> flat = arrays("csr", CSR_PTR, CSR_IND, CSR_DATA, 3, 4);
        flat.put("data.npy", npy(NpyArray.ofFloat64(CSR_DATA, 4, 1)));
        assertTrue(refusal("flat.npz", flat).contains("data.npy must be 1-D; got 2-D"));
        Map<String, byte[]> plain = Map.of("a.npy", npy(NpyArray.ofFloat64(new double[] {1}, 1)));
        assertTrue(refusal("plain.npz", plain).contains("it lacks data.npy, indices.npy, indptr.npy, shape.npy, "
                + "format.npy (it holds a.npy)"));
        assertTrue(refusal("short.npz", arrays("csr", new int[] {0, 2, 4}, CSR_IND, CSR_DATA, 3, 4))
                .contains("indptr has 3 entries, expected 4"));
        assertTrue(refusal("ends.npz", arrays("csr", new int[] {0, 2, 2, 3}, CSR_IND, CSR_DATA, 3, 4))
                .contains("indptr must run from 0 to the number of entries (4)"));
        assertTrue(refusal("down.npz", arrays("csr", new int[] {0, 3, 2, 4}, CSR_IND, CSR_DATA, 3, 4))
                .contains("indptr decreases at 1"));
        assertTrue(refusal("len.npz", arrays("csr", CSR_PTR, CSR_IND, new double[] {1, 2, 3}, 3, 4))
                .contains("indices has 4 entries but data has 3"));
        assertTrue(refusal("cscrow.npz", arrays("csc", CSC_PTR, new int[] {2, 0, 7, 0}, CSC_DATA, 3, 4))
                .contains("indices[2] is 7, outside [0, 3)"));
        Map<String, byte[]> neg = arrays("csr", CSR_PTR, CSR_IND, CSR_DATA, 3, 4);
        neg.put("indices.npy", npy(NpyArray.ofInt64(new long[] {1, 3, -1L << 40, 2}, 4)));
        assertTrue(refusal("neg.npz", neg).contains("indices[2] is -1099511627776, outside [0, 2^31)"));
        Path junk = dir.resolve("junk.npz");
        Files.writeString(junk, "not a zip");
        assertTrue(assertThrows(InvalidInputException.class, () -> SparseNpz.read(junk, CancellationToken.NEVER))
                .getMessage().contains("not a readable .npz (zip) archive"));
        assertTrue(assertThrows(InvalidInputException.class, () -> SparseNpz.read(dir.resolve("none.npz"),
                CancellationToken.NEVER)).getMessage().contains("none.npz: no such file"));
    }

    /** A string width beyond any format (and beyond an int) is refused as the other malformed formats are. */
    @Test
    void aFormatOfHugeWidthIsNamed() throws IOException {
        byte[] csr = "c\0\0\0s\0\0\0r\0\0\0".getBytes(StandardCharsets.ISO_8859_1);
        for (String descr : new String[] {"<U99999999999", "|S99999999999999999999", "<U100", "<U17"}) {
            Map<String, byte[]> wide = arrays("csr", CSR_PTR, CSR_IND, CSR_DATA, 3, 4);
            wide.put("format.npy", NpyBytes.file(NpyBytes.dict(descr, false, "()"), csr));
            assertEquals(dir.resolve("wide.npz") + ": format.npy is not a 0-d string array as save_npz writes it",
                    refusal("wide.npz", wide), descr);
        }
    }

    @Test
    void theShapeIsReadAloneAndAHugeCscMatrixIsRefusedBeforeItsArraysAre() throws IOException {
        // its transposed offsets would take 8 GiB; the tests run with -Xmx6g (the parent pom's argLine)
        Path huge = npz("huge.npz", arrays("csc", new int[] {0, 1}, new int[] {5}, new double[] {1}, 2147483000L, 1),
                true);
        assertArrayEquals(new int[] {2147483000, 1}, SparseNpz.shape(huge));
        assertTrue(assertThrows(InvalidInputException.class, () -> SparseNpz.read(huge, CancellationToken.NEVER))
                .getMessage().contains("huge.npz: to read this CSC matrix of shape 2147483000 x 1 as rows"));
        assertEquals(null, SparseNpz.shape(dir.resolve("none.npz")));
    }

    /**
     * A stored member (scipy's {@code compressed=False}) with one flipped bit still opens as a zip, and its
     * {@code .npy} still parses: only the CRC-32 the archive records tells, and the read refuses it by that,
     * whichever member it is in; the same archive unflipped reads.
     */
    @Test
    void aFlippedBitInAStoredMemberFailsItsCrc() throws IOException {
        Map<String, byte[]> entries = arrays("csr", CSR_PTR, CSR_IND, CSR_DATA, 3, 4);
        Path p = dir.resolve("stored.npz");
        try (OutputStream out = Files.newOutputStream(p); ZipOutputStream z = new ZipOutputStream(out)) {
            for (var e : entries.entrySet()) {
                ZipEntry ze = new ZipEntry(e.getKey());
                java.util.zip.CRC32 crc = new java.util.zip.CRC32();
                crc.update(e.getValue());
                ze.setMethod(ZipEntry.STORED);
                ze.setSize(e.getValue().length);
                ze.setCompressedSize(e.getValue().length);
                ze.setCrc(crc.getValue());
                z.putNextEntry(ze);
                z.write(e.getValue());
                z.closeEntry();
            }
        }
        byte[] good = Files.readAllBytes(p);
        assertArrayEquals(CSR_DATA, SparseNpz.read(p, CancellationToken.NEVER).data());
        for (String member : new String[] {"data.npy", "indices.npy", "format.npy"}) {
            byte[] payload = entries.get(member);
            int at = indexOf(good, payload) + payload.length - 1;   // the member's last byte: a value, not its header
            byte[] bad = good.clone();
            bad[at] ^= 0x01;   // data: 3.0 becomes 6.0; indices: 2 becomes 2 + 2^24; format: "csr" becomes "css"
            Path q = dir.resolve("bad-" + member + ".npz");
            Files.write(q, bad);
            String m = assertThrows(InvalidInputException.class, () -> SparseNpz.read(q, CancellationToken.NEVER))
                    .getMessage();
            assertTrue(m.contains("bad-" + member + ".npz: " + member + " fails the archive's CRC-32 check"), m);
        }
        // a flipped bit in a member's .npy header: the corruption is named, not the header it made
        byte[] header = good.clone();
        header[indexOf(good, entries.get("data.npy")) + 1] ^= 0x01;   // "NUMPY" becomes "OUMPY"
        Path h = dir.resolve("bad-header.npz");
        Files.write(h, header);
        String m = assertThrows(InvalidInputException.class, () -> SparseNpz.read(h, CancellationToken.NEVER))
                .getMessage();
        assertTrue(m.contains("bad-header.npz: data.npy fails the archive's CRC-32 check"), m);
    }

    /**
     * A deflated member whose compressed size the central directory halves: its inflater runs out of input (an
     * EOFException, not a ZipException) and the read names the archive and the member as unreadable, whichever
     * member it is (format.npy is read apart from the others). The member gets 4000 random bytes after its array, so
     * that the cut falls inside deflated data, as in scipy's file of random values; the few bytes of a tiny member
     * cut in half inflate to a short stream instead, which fails the CRC-32 check.
     */
    @Test
    void aTruncatedDeflatedMemberIsNamed() throws IOException {
        java.util.Random random = new java.util.Random(7);
        byte[] noise = new byte[4000];
        random.nextBytes(noise);
        for (String member : new String[] {"data.npy", "format.npy"}) {
            Map<String, byte[]> entries = arrays("csr", CSR_PTR, CSR_IND, CSR_DATA, 3, 4);
            entries.put(member, java.util.Arrays.copyOf(entries.get(member), entries.get(member).length + noise.length));
            System.arraycopy(noise, 0, entries.get(member), entries.get(member).length - noise.length, noise.length);
            Path p = npz("short.npz", entries, true);
            byte[] zip = Files.readAllBytes(p);
            byte[] entry = ("PK\1\2").getBytes(StandardCharsets.ISO_8859_1);
            int at = indexOf(zip, entry);
            while (!new String(zip, at + 46, member.length(), StandardCharsets.ISO_8859_1).equals(member)) {
                at = at + 1 + indexOf(java.util.Arrays.copyOfRange(zip, at + 1, zip.length), entry);
            }
            java.nio.ByteBuffer cd = java.nio.ByteBuffer.wrap(zip).order(java.nio.ByteOrder.LITTLE_ENDIAN);
            cd.putInt(at + 20, cd.getInt(at + 20) / 2);   // the compressed size
            Files.write(p, zip);
            String m = assertThrows(InvalidInputException.class, () -> SparseNpz.read(p, CancellationToken.NEVER))
                    .getMessage();
            assertEquals(p + ": " + member + ": not a readable .npz (zip) archive: Unexpected end of ZLIB input stream",
                    m);
        }
    }

    /**
     * A FIFO named .npz (a shell's {@code mkfifo x.npz; cat good.npz > x.npz &}) gets the refusal standard input
     * holding a zip gets, not ZipFile's "zip file is empty".
     */
    @Test
    void aFifoIsRefusedAsStandardInputIs() throws Exception {
        Path fifo = AtomicOutputTest.fifo(dir.resolve("fifo.npz"));
        byte[] good = Files.readAllBytes(npz("good.npz", arrays("csr", CSR_PTR, CSR_IND, CSR_DATA, 3, 4), true));
        Thread writer = new Thread(() -> {
            try {
                Files.write(fifo, good);
            } catch (IOException e) {
                // what the test checks is the refusal, not the writer
            }
        });
        writer.setDaemon(true);
        writer.start();
        String m = assertThrows(InvalidInputException.class, () -> SparseNpz.read(fifo, CancellationToken.NEVER))
                .getMessage();
        assertEquals(fifo + ": not a regular file (a pipe, FIFO or device): give a .npz by its file name, it is read with "
                + "random access", m);
        assertEquals(null, SparseNpz.shape(fifo));
        // the refusal opened nothing: the writer, blocked until a reader opens the FIFO, still has every byte to give
        assertArrayEquals(good, Files.readAllBytes(fifo));
    }

    private static int indexOf(byte[] hay, byte[] needle) {
        for (int i = 0; i + needle.length <= hay.length; i++) {
            if (java.util.Arrays.equals(hay, i, i + needle.length, needle, 0, needle.length)) return i;
        }
        throw new AssertionError("not found");
    }

    @Test
    void aCancelledReadStops() throws IOException {
        Path p = npz("c.npz", arrays("csr", CSR_PTR, CSR_IND, CSR_DATA, 3, 4), true);
        CancellationToken t = new CancellationToken();
        t.cancel();
        assertThrows(org.sylva.progress.CancelledException.class, () -> SparseNpz.read(p, t));
    }
}
