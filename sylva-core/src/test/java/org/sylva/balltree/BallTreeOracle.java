package org.sylva.balltree;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;

/**
 * Test-only access to {@code ../shared/oracle/balltree}: the {@code .in} inputs ({@code int64 n, int64 d,
 * float32[n*d], int64[n]}, little-endian), the reference {@code .i64}/{@code .u8} outputs and the case
 * list of {@code manifest.json} (read with a minimal JSON parser).
 */
final class BallTreeOracle {
    private BallTreeOracle() { }

    /** One input file. */
    record Input(int n, int d, float[] coords, long[] batch) { }

    /** One build case of the manifest. */
    record BuildCase(String name, String expect) { }

    /** One partition case of the manifest. */
    record PartitionCase(String name, List<Integer> levels) { }

    /** The oracle folder; fails (or skips outside CI when {@code sylva.shared} is unset) if missing. */
    static Path dir() {
        String prop = System.getProperty("sylva.shared");
        Path shared = prop != null ? Path.of(prop) : Path.of("..", "..", "shared");
        Path dir = shared.resolve("oracle").resolve("balltree");
        if (!Files.isRegularFile(dir.resolve("manifest.json"))) {
            if (prop == null && System.getenv("CI") == null) {
                Assumptions.abort("ball-tree oracle not found at " + dir.toAbsolutePath() + " (sylva.shared unset)");
            }
            fail("ball-tree oracle missing: " + dir.toAbsolutePath());
        }
        return dir;
    }

    static Input readInput(String name) throws IOException {
        ByteBuffer b = le(Files.readAllBytes(dir().resolve("inputs").resolve(name + ".in")));
        int n = Math.toIntExact(b.getLong());
        int d = Math.toIntExact(b.getLong());
        float[] x = new float[n * d];
        for (int i = 0; i < x.length; i++) x[i] = b.getFloat();
        long[] ids = new long[n];
        for (int i = 0; i < n; i++) ids[i] = b.getLong();
        if (b.hasRemaining()) throw new IOException(name + ".in: " + b.remaining() + " trailing bytes");
        return new Input(n, d, x, ids);
    }

    static long[] readI64(String file) throws IOException {
        ByteBuffer b = le(Files.readAllBytes(dir().resolve("ref").resolve(file)));
        long[] out = new long[b.remaining() / 8];
        for (int i = 0; i < out.length; i++) out[i] = b.getLong();
        return out;
    }

    static byte[] readU8(String file) throws IOException {
        return Files.readAllBytes(dir().resolve("ref").resolve(file));
    }

    private static ByteBuffer le(byte[] bytes) {
        return ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    }

    @SuppressWarnings("unchecked")
    static List<BuildCase> buildCases() throws IOException {
        Map<String, Object> man = (Map<String, Object>) new Json(Files.readString(dir().resolve("manifest.json"))).value();
        List<BuildCase> out = new ArrayList<>();
        for (Object o : (List<Object>) man.get("build")) {
            Map<String, Object> c = (Map<String, Object>) o;
            out.add(new BuildCase((String) c.get("name"), (String) c.get("expect")));
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    static List<PartitionCase> partitionCases() throws IOException {
        Map<String, Object> man = (Map<String, Object>) new Json(Files.readString(dir().resolve("manifest.json"))).value();
        List<PartitionCase> out = new ArrayList<>();
        for (Object o : (List<Object>) man.get("partition")) {
            Map<String, Object> c = (Map<String, Object>) o;
            List<Integer> levels = new ArrayList<>();
            for (Object l : (List<Object>) c.get("levels")) levels.add(((Number) l).intValue());
            out.add(new PartitionCase((String) c.get("name"), levels));
        }
        return out;
    }

    /** Just enough JSON for the manifest: objects, arrays, strings, numbers, booleans, null. */
    static final class Json {
        private final String s;
        private int i;

        Json(String s) {
            this.s = s;
        }

        Object value() {
            ws();
            char c = s.charAt(i);
            if (c == '{') {
                i++;
                Map<String, Object> m = new LinkedHashMap<>();
                ws();
                if (s.charAt(i) == '}') { i++; return m; }
                for (int guard = 0; guard < s.length(); guard++) {
                    ws();
                    String k = string();
                    ws();
                    expect(':');
                    m.put(k, value());
                    ws();
                    if (s.charAt(i) == ',') { i++; continue; }
                    expect('}');
                    return m;
                }
                throw new IllegalStateException("bad object");
            }
            if (c == '[') {
                i++;
                List<Object> l = new ArrayList<>();
                ws();
                if (s.charAt(i) == ']') { i++; return l; }
                for (int guard = 0; guard < s.length(); guard++) {
                    l.add(value());
                    ws();
                    if (s.charAt(i) == ',') { i++; continue; }
                    expect(']');
                    return l;
                }
                throw new IllegalStateException("bad array");
            }
            if (c == '"') return string();
            if (s.startsWith("true", i)) { i += 4; return Boolean.TRUE; }
            if (s.startsWith("false", i)) { i += 5; return Boolean.FALSE; }
            if (s.startsWith("null", i)) { i += 4; return null; }
            int st = i;
            while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) i++;
            String num = s.substring(st, i);
            return num.contains(".") || num.contains("e") || num.contains("E") ? (Object) Double.parseDouble(num)
                    : (Object) Long.parseLong(num);
        }

        private String string() {
            expect('"');
            StringBuilder b = new StringBuilder();
            while (s.charAt(i) != '"') {
                char c = s.charAt(i++);
                if (c == '\\') {
                    char e = s.charAt(i++);
                    switch (e) {
                        case 'n' -> b.append('\n');
                        case 't' -> b.append('\t');
                        case 'u' -> { b.append((char) Integer.parseInt(s.substring(i, i + 4), 16)); i += 4; }
                        default -> b.append(e);
                    }
                } else {
                    b.append(c);
                }
            }
            i++;
            return b.toString();
        }

        private void ws() {
            while (i < s.length() && Character.isWhitespace(s.charAt(i))) i++;
        }

        private void expect(char c) {
            if (s.charAt(i) != c) throw new IllegalStateException("expected '" + c + "' at " + i);
            i++;
        }
    }
}
