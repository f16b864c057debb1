package org.sylva.hdbscan.hierarchy;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Test-only access to the HDBSCAN oracle in {@code shared/oracle/hdbscan}: finds the folder and reads
 * its little-endian, C-order {@code .npy} files ({@code <f8, <f4, <i4, <i8, |u1}) into Java arrays.
 * Kept here so the hierarchy tests do not depend on the production NPY reader.
 *
 * <pre>{@code
 * OracleData.Npy mst = OracleData.read("iris_mcs5_ms4_mst.npy");
 * double w = mst.data()[2];
 * }</pre>
 */
final class OracleData {
    private static final Pattern DESCR = Pattern.compile("'descr'\\s*:\\s*'([^']*)'");
    private static final Pattern FORTRAN = Pattern.compile("'fortran_order'\\s*:\\s*(True|False)");
    private static final Pattern SHAPE = Pattern.compile("'shape'\\s*:\\s*\\(([^)]*)\\)");

    private OracleData() {
    }

    /** A loaded array: its dtype string, shape and values widened to double. */
    record Npy(String descr, int[] shape, double[] data) {
        int rows() {
            return shape.length == 0 ? 1 : shape[0];
        }

        int cols() {
            return shape.length < 2 ? 1 : shape[1];
        }

        double at(int row, int col) {
            return data[row * cols() + col];
        }

        int[] asInts() {
            int[] out = new int[data.length];
            for (int i = 0; i < data.length; i++) {
                out[i] = (int) data[i];
                if (out[i] != data[i]) throw new IllegalStateException("value " + data[i] + " at " + i + " is not an int");
            }
            return out;
        }
    }

    /**
     * The oracle folder: {@code $sylva.shared/oracle/hdbscan}, else {@code ../shared/oracle/hdbscan}
     * above the working directory's repository. Skips the test only when neither exists and the
     * environment variable {@code CI} is unset; in CI a missing oracle fails.
     */
    static Path dir() {
        String prop = System.getProperty("sylva.shared");
        Path p = prop == null ? null : Path.of(prop, "oracle", "hdbscan");
        if (p != null && Files.isDirectory(p)) return p;
        Path cwd = Path.of("").toAbsolutePath();
        for (Path q = cwd; q != null; q = q.getParent()) {
            if (Files.isRegularFile(q.resolve("pom.xml")) && Files.isDirectory(q.resolve("sylva-core"))) {
                Path cand = q.resolve("../shared/oracle/hdbscan").normalize();
                if (Files.isDirectory(cand)) return cand;
                break;
            }
        }
        boolean ci = System.getenv("CI") != null;
        if (!ci) assumeTrue(false, "HDBSCAN oracle not found (sylva.shared=" + prop + ")");
        throw new IllegalStateException("HDBSCAN oracle not found: sylva.shared=" + prop + ", cwd=" + cwd);
    }

    static Npy read(String file) {
        return read(dir().resolve(file));
    }

    static Npy read(Path file) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + file, e);
        }
        if (bytes.length < 10 || (bytes[0] & 0xff) != 0x93 || bytes[1] != 'N' || bytes[2] != 'U') {
            throw new IllegalStateException(file + ": not an .npy file");
        }
        int major = bytes[6];
        ByteBuffer bb = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        int headerLen, start;
        if (major == 1) {
            headerLen = bb.getShort(8) & 0xffff;
            start = 10;
        } else {
            headerLen = bb.getInt(8);
            start = 12;
        }
        String header = new String(bytes, start, headerLen, StandardCharsets.ISO_8859_1);
        String descr = group(DESCR, header, file);
        if (group(FORTRAN, header, file).equals("True")) throw new IllegalStateException(file + ": Fortran order");
        String[] dims = group(SHAPE, header, file).split(",");
        int count = 0;
        int[] shape = new int[dims.length];
        long total = 1;
        for (String d : dims) {
            if (d.isBlank()) continue;
            shape[count] = Integer.parseInt(d.trim());
            total *= shape[count++];
        }
        shape = java.util.Arrays.copyOf(shape, count);
        int off = start + headerLen;
        double[] data = new double[Math.toIntExact(total)];
        for (int i = 0; i < data.length; i++) {
            data[i] = switch (descr) {
                case "<f8" -> bb.getDouble(off + 8 * i);
                case "<f4" -> bb.getFloat(off + 4 * i);
                case "<i4" -> bb.getInt(off + 4 * i);
                case "<i8" -> bb.getLong(off + 8 * i);
                case "|u1" -> bytes[off + i] & 0xff;
                default -> throw new IllegalStateException(file + ": unsupported dtype " + descr);
            };
        }
        return new Npy(descr, shape, data);
    }

    private static String group(Pattern p, String header, Path file) {
        Matcher m = p.matcher(header);
        if (!m.find()) throw new IllegalStateException(file + ": header lacks " + p.pattern() + ": " + header);
        return m.group(1);
    }
}
