package org.sylva.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sylva.gpu.cuda.CudaDriver;
import org.sylva.gpu.opencl.OpenClDevices;
import org.sylva.testsupport.MiniJson;

/**
 * The plumbing of {@code gpu/device-check.sh}, the script for the machine with the NVIDIA GPU, run here
 * on what this machine has: OpenCL on PoCL, tiny sizes, generated data, the CLI from the build's class
 * path. It must compare the GPU outputs with simd's byte for byte, run the benchmark, write a valid
 * JSON summary and the log, and record a CUDA refusal as a failure (exit 1). Its CUDA runs themselves
 * need the device machine.
 */
class DeviceCheckScriptTest {
    private static final Path SCRIPT = Path.of("..", "gpu", "device-check.sh");

    private record Run(int code, String out) {
    }

    private static Run script(Path out, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("bash", SCRIPT.toString(),
                "--java", Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--classpath", System.getProperty("java.class.path"), "--out", out.toString(),
                "--oracle", "none", "--generated", "300", "--repeat", "1", "--budget", "240"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        byte[] bytes = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(300, TimeUnit.SECONDS), "timed out");
        return new Run(p.exitValue(), new String(bytes, StandardCharsets.UTF_8));
    }

    /** Skips without an OpenCL device, except under CI=true, where the device is required (PoCL). */
    private static void assumeOpenClUnlessCi() {
        if (!"true".equalsIgnoreCase(System.getenv("CI"))) {
            assumeTrue(OpenClDevices.scan().firstUsable().isPresent(), "no OpenCL device: " + OpenClDevices.scan().whyNone());
        }
    }

    @Test
    void onOpenClItComparesBenchesAndSummarises(@TempDir Path tmp) throws Exception {
        assumeOpenClUnlessCi();
        Run r = script(tmp, "--backends", "opencl", "--sizes", "400", "--tree-oracle", "none", "--tree-sizes", "300 2x150",
                "--tree-repeat", "1");
        assertEquals(0, r.code(), r.out());
        String json = Files.readString(tmp.resolve("device-check.json"));
        Object parsed = MiniJson.parse(json);
        assertTrue(parsed instanceof java.util.Map, json);
        assertTrue(json.contains("\"ok\": true") && json.contains("\"opencl\": {\"identical\": 2, \"differ\": 0, \"failed\": 0}"), json);
        assertTrue(json.contains("{\"backend\": \"opencl\", \"n\": 400, \"status\": \"ok\""), json);
        assertTrue(json.contains("{\"backend\": \"simd\", \"n\": 400, \"status\": \"ok\""), json);
        assertTrue(Files.readString(tmp.resolve("device-check.log")).contains("identical to simd"));
        // the ball tree: generated clouds (two builds, two partitions) identical to the CPU engine, both timings
        assertTrue(json.contains("\"balltree_exactness\": {\n    \"opencl\": {\"identical\": 4, \"differ\": 0, \"failed\": 0}"), json);
        assertTrue(json.contains("{\"input\": \"2x150\", \"backend\": \"opencl\", \"status\": \"ok\"")
                && json.contains("{\"input\": \"2x150\", \"backend\": \"cpu\", \"status\": \"ok\""), json);
        assertTrue(java.util.regex.Pattern.compile("\"backend\": \"opencl\", \"status\": \"ok\", \"repeat\": 1, "
                + "\"host_to_host_median_ms\": [0-9.]+, \"on_device_median_ms\": [0-9.]+").matcher(json).find(), json);
    }

    @Test
    void variantsRunEachGpuBenchOncePerOptionSet(@TempDir Path tmp) throws Exception {
        assumeOpenClUnlessCi();
        Run r = script(tmp, "--backends", "opencl", "--checks", "hdbscan", "--sizes", "400", "--cpu-sizes", "",
                "--variants", "-Dsylva.gpu.roundSlices=1|-Dsylva.gpu.trace=true -Dsylva.gpu.launchWaves=2");
        assertEquals(0, r.code(), r.out());
        String json = Files.readString(tmp.resolve("device-check.json"));
        MiniJson.parse(json);
        assertTrue(json.contains("{\"backend\": \"opencl\", \"n\": 400, \"variant\": \"-Dsylva.gpu.roundSlices=1\", "
                + "\"status\": \"ok\""), json);
        assertTrue(json.contains("{\"backend\": \"opencl\", \"n\": 400, \"variant\": \"-Dsylva.gpu.trace=true "
                + "-Dsylva.gpu.launchWaves=2\", \"status\": \"ok\""), json);
        String log = Files.readString(tmp.resolve("device-check.log"));
        // the trace's lines reach the log from the second set only: its warm-up fit and its timed fit
        assertEquals(2, log.lines().filter(l -> l.contains("sylva-gpu: core lists")).count(), log);
        assertTrue(log.contains("sylva-gpu: round 1"), log);
    }

    @Test
    void aCudaRefusalIsAFailureInTheSummary(@TempDir Path tmp) throws Exception {
        assumeTrue(CudaDriver.loadFailure() != null, "a CUDA driver is present here");
        Run r = script(tmp, "--backends", "cuda", "--sizes", "", "--tree-oracle", "none", "--tree-sizes", "");
        assertEquals(1, r.code(), r.out());
        String json = Files.readString(tmp.resolve("device-check.json"));
        MiniJson.parse(json);
        assertTrue(json.contains("\"ok\": false") && json.contains("\"cuda\": {\"identical\": 0, \"differ\": 0, \"failed\": 2}"), json);
        assertTrue(json.contains("CUDA backend unavailable"), json);
        assertTrue(json.contains("\"balltree_exactness\": {\n    \"cuda\": {\"identical\": 0, \"differ\": 0, \"failed\": 4}"), json);
    }

    @Test
    void aDryRunPrintsThePlanAndRunsNoFit(@TempDir Path tmp) throws Exception {
        Run r = script(tmp, "--backends", "cuda opencl", "--sizes", "20000 500000", "--tree-oracle", "none", "--dry-run");
        assertEquals(0, r.code(), r.out());
        assertTrue(r.out().contains("plan: bench --generate 500000 --backend cuda")
                && r.out().contains("plan: hdbscan clips_mcs20_ms19 --backend opencl")
                && r.out().contains("dry run: nothing run"), r.out());
        assertTrue(r.out().contains("plan: balltree build uniform --backend opencl")
                && r.out().contains("plan: bench balltree 64x16384 (d = 3) --backend cuda"), r.out());
        assertTrue(Files.notExists(tmp.resolve("device-check.json")));
    }
}
