package org.sylva.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sylva.data.PointSet;
import org.sylva.io.JsonReader;

/**
 * Every command's {@code --json} line against {@code docs/cli-json.md}: the keys in the documented order (the
 * optional ones where they apply), {@code sylva_version} and {@code command} first, and the quantities every command
 * shares with the same meaning ({@code n_noise} and {@code cluster_sizes} counted from the labels written).
 */
class JsonSummaryKeysTest {
    private static final Path DOC = Path.of("..", "docs", "cli-json.md");

    @TempDir
    static Path shared;
    static Path points;
    static Path fresh;
    static Path model;
    static Map<String, List<String>> documented;
    static Map<String, List<String>> optional;

    @BeforeAll
    static void fitOnce() throws IOException {
        PointSet clips = TestData.clips(300);
        points = TestData.writeNpy(clips, shared.resolve("clips.npy"));
        fresh = TestData.writeNpy(TestData.clips(40), shared.resolve("fresh.npy"));
        model = shared.resolve("clips.model");
        Cli.run("hdbscan", points.toString(), "--min-cluster-size", "10", "--out", shared.resolve("fit").toString(),
                "--save-model", model.toString(), "--threads", "2", "-q").assertOk();
        documented = new LinkedHashMap<>();
        optional = new LinkedHashMap<>();
        readDoc(Files.readString(DOC));
    }

    /** Each {@code ## sylva COMMAND} section's table: its keys in order, and which of them are marked optional. */
    private static void readDoc(String doc) {
        Pattern section = Pattern.compile("^## sylva (.+)$", Pattern.MULTILINE);
        Pattern row = Pattern.compile("^\\| `([a-z_]+)` \\| (.*)\\|$", Pattern.MULTILINE);
        Matcher s = section.matcher(doc);
        List<int[]> bounds = new ArrayList<>();
        List<String> names = new ArrayList<>();
        while (s.find()) {
            names.add(s.group(1).strip());
            bounds.add(new int[] {s.end(), doc.length()});
        }
        for (int i = 0; i + 1 < bounds.size(); i++) bounds.get(i)[1] = bounds.get(i + 1)[0];
        for (int i = 0; i < names.size(); i++) {
            List<String> keys = new ArrayList<>();
            List<String> opt = new ArrayList<>();
            Matcher r = row.matcher(doc.substring(bounds.get(i)[0], bounds.get(i)[1]));
            while (r.find()) {
                keys.add(r.group(1));
                if (r.group(2).contains("*optional*")) opt.add(r.group(1));
            }
            documented.put(names.get(i), keys);
            optional.put(names.get(i), opt);
        }
    }

    /** The one JSON object on {@code out}'s only line, its keys checked against the section of {@code command}. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> line(String command, Cli.Result r) {
        List<String> lines = r.out().lines().toList();
        assertEquals(1, lines.size(), () -> "one line on stdout:\n" + r.out());
        Map<String, Object> j = (Map<String, Object>) JsonReader.parse(lines.get(0), 8, "--json");
        List<String> want = new ArrayList<>(documented.get(command));
        assertFalse(want.isEmpty(), "docs/cli-json.md has a section ## sylva " + command);
        want.removeIf(k -> optional.get(command).contains(k) && !j.containsKey(k));
        assertEquals(want, new ArrayList<>(j.keySet()), command);
        assertEquals(List.of("sylva_version", "command"), want.subList(0, 2));
        assertEquals(command, j.get("command"));
        assertEquals(SylvaCommand.version(), j.get("sylva_version"));
        return j;
    }

    /** {@code n_noise} and {@code cluster_sizes} of {@code j} as counted from {@code labels}. */
    private static void assertCounts(Map<String, Object> j, int[] labels) {
        int clusters = ((Number) j.get("n_clusters")).intValue();
        int[] sizes = new int[clusters];
        int noise = 0;
        for (int l : labels) {
            if (l >= 0) sizes[l]++;
            else noise++;
        }
        assertEquals(noise, ((Number) j.get("n_noise")).intValue());
        List<Object> got = new ArrayList<>();
        for (Object o : (List<?>) j.get("cluster_sizes")) got.add(((Number) o).intValue());
        assertEquals(JsonSummary.list(sizes), got);
    }

    private static int[] labels(Path dir) throws IOException {
        return org.sylva.io.Npy.read(dir.resolve("labels.npy")).toInt32();
    }

    @Test
    void theDocumentListsEveryCommandWithJson() {
        assertEquals(List.of("hdbscan", "predict", "cut", "reselect", "balltree", "bench hdbscan", "bench balltree",
                "bench predict"), new ArrayList<>(documented.keySet()));
    }

    @Test
    void hdbscan(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("fit");
        Map<String, Object> j = line("hdbscan", Cli.run("hdbscan", points.toString(), "--min-cluster-size", "10",
                "--out", out.toString(), "--threads", "2", "--json", "-q").assertOk());
        assertCounts(j, labels(out));
        assertEquals(300, ((Number) j.get("n_points")).intValue());
        assertInstanceOf(Map.class, j.get("seconds"));
    }

    @Test
    void predict(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("p");
        Map<String, Object> j = line("predict", Cli.run("predict", model.toString(), fresh.toString(), "--out",
                out.toString(), "--threads", "2", "--json", "-q").assertOk());
        assertCounts(j, labels(out));
        assertEquals(2, ((Number) j.get("threads")).intValue());
        assertEquals(List.of("model", "read", "prediction"), new ArrayList<>(((Map<?, ?>) j.get("seconds")).keySet()));
    }

    @Test
    void cut(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("c");
        Map<String, Object> j = line("cut", Cli.run("cut", model.toString(), "--distance", "1.5", "--out",
                out.toString(), "--json", "-q").assertOk());
        assertCounts(j, labels(out));
        assertEquals(List.of("model", "cut"), new ArrayList<>(((Map<?, ?>) j.get("seconds")).keySet()));
    }

    @Test
    void reselect(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("r");
        Map<String, Object> j = line("reselect", Cli.run("reselect", model.toString(), "--method", "leaf", "--out",
                out.toString(), "--json", "-q").assertOk());
        assertCounts(j, labels(out));
        assertEquals(((Number) j.get("n_clusters")).intValue(), ((List<?>) j.get("cluster_persistence")).size());
        assertEquals("leaf", ((Map<?, ?>) j.get("parameters")).get("cluster_selection_method"));
    }

    @Test
    void balltreeAndItsPartition(@TempDir Path tmp) throws IOException {
        Map<String, Object> tree = line("balltree", Cli.run("balltree", points.toString(), "--out",
                tmp.resolve("t").toString(), "--threads", "2", "--json", "-q").assertOk());
        assertEquals(512, ((Number) tree.get("n_slots")).intValue());   // 300 points: 2^(8+1) slots
        assertEquals("scalar", tree.get("backend"));
        assertEquals(null, tree.get("partition_level"));
        Map<String, Object> part = line("balltree", Cli.run("balltree", points.toString(), "--out",
                tmp.resolve("p").toString(), "--partition-level", "3", "--backend", "simd", "--json", "-q").assertOk());
        assertEquals(3, ((Number) part.get("partition_level")).intValue());
        assertEquals(null, part.get("n_slots"));
        assertEquals(List.of(tmp.resolve("p").resolve("perm.npy").toString()), part.get("files"));
        assertTrue(List.of("simd", "scalar").contains(part.get("backend")), "the kernels that ran");
    }

    @Test
    void benchHdbscan() {
        Map<String, Object> j = line("bench hdbscan", Cli.run("bench", "hdbscan", points.toString(),
                "--min-cluster-size", "10", "--repeat", "1", "--warmup", "0", "--threads", "2", "--json").assertOk());
        assertTrue(((Map<?, ?>) j.get("median_seconds")).containsKey("total"));
        assertEquals(null, j.get("generate"));
    }

    @Test
    void benchBalltree() {
        Map<String, Object> j = line("bench balltree", Cli.run("bench", "balltree", points.toString(), "--repeat", "1",
                "--backend", "scalar", "--json").assertOk());
        assertEquals("scalar", j.get("backend"));
        assertEquals(List.of("build"), new ArrayList<>(((Map<?, ?>) j.get("median_seconds")).keySet()));
    }

    @Test
    void benchPredict() {
        Map<String, Object> j = line("bench predict", Cli.run("bench", "predict", model.toString(), fresh.toString(),
                "--repeat", "1", "--warmup", "0", "--threads", "2", "--json").assertOk());
        assertEquals(300, ((Number) j.get("n_fitted")).intValue());
        assertEquals(40, ((Number) j.get("n_points")).intValue());
    }

    @Test
    void theBalltreeBackendAndKernelsMustAgree(@TempDir Path tmp) {
        Cli.run("balltree", points.toString(), "--out", tmp.resolve("t").toString(), "--backend", "simd", "--kernels",
                "scalar").assertError("--backend simd", "--kernels scalar");
        Cli.run("bench", "balltree", points.toString(), "--backend", "scalar", "--kernels", "vector")
                .assertError("--backend scalar", "--kernels vector");
    }
}
