package org.sylva.hdbscan.mst;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Test-only reader of the oracle's {@code .npy} files (little-endian {@code <f8 <f4 <i4 <i8 |u1}, C order)
 * and locator of {@code ../shared/oracle/hdbscan}.
 */
public final class OracleData {
    private OracleData() {
    }

    /** One array: shape and values widened to double (integers are exact up to 2^53). */
    public record Array(int[] shape, double[] values) {
        public int rows() {
            return shape.length == 0 ? 1 : shape[0];
        }

        public int cols() {
            return shape.length < 2 ? 1 : shape[1];
        }

        public int[] asInts() {
            int[] r = new int[values.length];
            for (int i = 0; i < r.length; i++) r[i] = (int) values[i];
            return r;
        }
    }

    private static final Pattern DESCR = Pattern.compile("'descr':\\s*'([^']+)'");
    private static final Pattern ORDER = Pattern.compile("'fortran_order':\\s*(True|False)");
    private static final Pattern SHAPE = Pattern.compile("'shape':\\s*\\(([^)]*)\\)");

    public static Array read(Path file) {
        try {
            byte[] all = Files.readAllBytes(file);
            ByteBuffer bb = ByteBuffer.wrap(all).order(ByteOrder.LITTLE_ENDIAN);
            if (all.length < 10 || all[0] != (byte) 0x93 || all[1] != 'N' || all[2] != 'U') {
                throw new IllegalArgumentException(file + ": not an .npy file");
            }
            int major = all[6];
            int headerLen;
            int offset;
            if (major == 1) {
                headerLen = bb.getShort(8) & 0xffff;
                offset = 10;
            } else {
                headerLen = bb.getInt(8);
                offset = 12;
            }
            String header = new String(all, offset, headerLen, StandardCharsets.ISO_8859_1);
            int data = offset + headerLen;
            Matcher m = DESCR.matcher(header);
            if (!m.find()) throw new IllegalArgumentException(file + ": no descr in header " + header);
            String descr = m.group(1);
            Matcher o = ORDER.matcher(header);
            if (o.find() && o.group(1).equals("True")) throw new IllegalArgumentException(file + ": Fortran order");
            Matcher s = SHAPE.matcher(header);
            if (!s.find()) throw new IllegalArgumentException(file + ": no shape");
            String[] parts = s.group(1).split(",");
            int count = 0;
            int[] shape = new int[parts.length];
            for (String p : parts) if (!p.isBlank()) shape[count++] = Integer.parseInt(p.trim());
            shape = java.util.Arrays.copyOf(shape, count);
            long total = 1;
            for (int v : shape) total *= v;
            double[] values = new double[(int) total];
            bb.position(data);
            for (int i = 0; i < values.length; i++) {
                values[i] = switch (descr) {
                    case "<f8" -> bb.getDouble();
                    case "<f4" -> bb.getFloat();
                    case "<i4" -> bb.getInt();
                    case "<i8" -> bb.getLong();
                    case "|u1", "|b1" -> bb.get() & 0xff;
                    default -> throw new IllegalArgumentException(file + ": unsupported dtype " + descr);
                };
            }
            return new Array(shape, values);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + file, e);
        }
    }

    /**
     * The oracle folder: {@code $sylva.shared/oracle/hdbscan}, else {@code ../shared/oracle/hdbscan} above
     * the repository root. Missing: the test is skipped only outside CI and when the property points
     * nowhere; in CI it fails.
     */
    public static Path dir() {
        String prop = System.getProperty("sylva.shared");
        if (prop != null) {
            Path p = Paths.get(prop, "oracle", "hdbscan");
            if (Files.isDirectory(p)) return p;
        }
        Path cwd = Paths.get("").toAbsolutePath();
        for (Path up = cwd; up != null; up = up.getParent()) {
            Path p = up.resolve("../shared/oracle/hdbscan").normalize();
            if (Files.isDirectory(p)) return p;
        }
        boolean ci = System.getenv("CI") != null;
        boolean propPointsSomewhere = prop != null && Files.exists(Paths.get(prop));
        if (!ci && !propPointsSomewhere) assumeTrue(false, "HDBSCAN oracle not found (sylva.shared=" + prop + ")");
        throw new IllegalStateException("HDBSCAN oracle not found: sylva.shared=" + prop + ", cwd=" + cwd);
    }
}
