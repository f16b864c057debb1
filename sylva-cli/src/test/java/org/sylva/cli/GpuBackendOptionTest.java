package org.sylva.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sylva.gpu.opencl.OpenClDevices;

/**
 * {@code sylva devices} lists what it finds; {@code --backend opencl} writes the CPU's bytes where an
 * OpenCL device is usable (PoCL in CI); {@code --backend cuda} without CUDA is one error line, exit 2;
 * {@code sylva bench hdbscan} takes the same choice.
 */
class GpuBackendOptionTest {
    @Test
    void devicesListsEveryApi() {
        Cli.Result r = Cli.run("devices");
        boolean usable = OpenClDevices.scan().preferred().isPresent()
                || org.sylva.gpu.cuda.CudaDevices.scan().devices().stream().anyMatch(org.sylva.gpu.GpuDevice::usable);
        assertEquals(usable ? 0 : 1, r.code(), r.err());
        assertTrue(r.out().contains("opencl") && r.out().contains("cuda"), r.out());
        if ("true".equalsIgnoreCase(System.getenv("CI"))) assertEquals(0, r.code(), "CI has PoCL: " + r.out());
    }

    /** With neither API's library there, the listing says why for each, and the status is 1: nothing is usable. */
    @org.junit.jupiter.api.Timeout(value = 5, unit = java.util.concurrent.TimeUnit.MINUTES,
            threadMode = org.junit.jupiter.api.Timeout.ThreadMode.SEPARATE_THREAD)
    @Test
    void devicesWithNothingUsableExitsOne() throws Exception {
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dsylva.opencl.library=/nonexistent/libOpenCL.so.1", "-Dsylva.cuda.library=/nonexistent/libcuda.so.1",
                "-cp", System.getProperty("java.class.path"), Main.class.getName(), "devices")
                .redirectErrorStream(true).start();
        String said = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertEquals(1, p.waitFor(), said);
        assertTrue(said.lines().anyMatch(l -> l.startsWith("opencl: ")) && said.lines().anyMatch(l -> l.startsWith("cuda: ")),
                said);
        assertTrue(said.contains("/nonexistent/libOpenCL.so.1"), said);
    }

    @Test
    void openClWritesTheCpuOutputs(@TempDir Path tmp) throws IOException {
        boolean ci = "true".equalsIgnoreCase(System.getenv("CI"));
        if (!ci) assumeTrue(OpenClDevices.scan().firstUsable().isPresent(), "no OpenCL device: " + OpenClDevices.scan().whyNone());
        Path in = TestData.writeNpy(TestData.clips(600), tmp.resolve("x.npy"));
        Cli.Result cpu = Cli.run("hdbscan", in.toString(), "--min-cluster-size", "10", "--out", tmp.resolve("cpu").toString(), "-q");
        Cli.Result gpu = Cli.run("hdbscan", in.toString(), "--min-cluster-size", "10", "--backend", "opencl",
                "--out", tmp.resolve("gpu").toString());
        assertEquals(0, cpu.code(), cpu.err());
        assertEquals(0, gpu.code(), gpu.err());
        // the summary names the engine and device; PoCL's device is the processor, which a note says first
        String device = OpenClDevices.scan().preferred().orElseThrow().info().name();
        assertTrue(gpu.err().contains(" s on gpu/opencl: " + device), gpu.err());
        boolean processor = OpenClDevices.scan().preferred().orElseThrow().cpu();
        assertEquals(processor, gpu.err().contains("sylva: note: the OpenCL device is the processor"), gpu.err());
        assertEquals(processor, gpu.err().contains(device + ", a CPU device)"), gpu.err());
        for (String f : new String[] {"labels.npy", "mst.npy", "probabilities.npy", "outlier_scores.npy"}) {
            Path a = tmp.resolve("cpu").resolve(f), b = tmp.resolve("gpu").resolve(f);
            if (Files.exists(a)) assertArrayEquals(Files.readAllBytes(a), Files.readAllBytes(b), f);
        }
        assertTrue(Files.exists(tmp.resolve("gpu").resolve("labels.npy")));
    }

    @Test
    void aGpuRefusalReadsAsASentenceWithItsRemedy(@TempDir Path tmp) throws IOException {
        boolean ci = "true".equalsIgnoreCase(System.getenv("CI"));
        if (!ci) assumeTrue(OpenClDevices.scan().firstUsable().isPresent(), "no OpenCL device: " + OpenClDevices.scan().whyNone());
        int n = 40, d = 3000;
        float[] x = new float[n * d];
        for (int i = 0; i < x.length; i++) x[i] = (i * 31 % 97) / 97f;
        Path in = TestData.writeNpy(org.sylva.data.PointSet.of(n, d, x), tmp.resolve("wide.npy"));
        Cli.Result r = Cli.run("hdbscan", in.toString(), "--backend", "opencl", "--out", tmp.resolve("o").toString());
        String line = r.err().lines().filter(l -> l.startsWith("sylva: error:")).findFirst().orElse(r.err());
        assertTrue(line.contains("at most 2048 coordinates per point, got 3000") && line.contains("--pca K"), line);
        assertTrue(!line.contains("Exception"), line);
        assertTrue(!Files.exists(tmp.resolve("o").resolve("labels.npy")));
    }

    @Test
    void cudaWithoutADeviceIsOneClearError(@TempDir Path tmp) throws IOException {
        Path in = TestData.writeNpy(TestData.clips(50), tmp.resolve("x.npy"));
        Cli.Result r = Cli.run("hdbscan", in.toString(), "--backend", "cuda", "--out", tmp.resolve("o").toString());
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("CUDA") && r.err().contains("--backend"), r.err());
        assertTrue(Files.notExists(tmp.resolve("o").resolve("labels.npy")));
    }

    @Test
    void benchRunsOnTheGpuEngineAndNamesIt() {
        boolean ci = "true".equalsIgnoreCase(System.getenv("CI"));
        if (!ci) assumeTrue(OpenClDevices.scan().firstUsable().isPresent(), "no OpenCL device: " + OpenClDevices.scan().whyNone());
        Cli.Result r = Cli.run("bench", "hdbscan", "--generate", "300", "--backend", "opencl", "--repeat", "1", "--warmup", "0");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("backend=gpu/opencl:_") && r.out().contains("total"), r.out());
    }

    @Test
    void benchOnCudaWithoutADeviceIsOneClearError() {
        Cli.Result r = Cli.run("bench", "hdbscan", "--generate", "300", "--backend", "cuda", "--repeat", "1");
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("CUDA") && r.err().contains("--backend"), r.err());
        Cli.Result bad = Cli.run("bench", "hdbscan", "--generate", "300", "--backend", "vulkan");
        assertEquals(2, bad.code(), bad.err());
        assertTrue(bad.err().contains("opencl or cuda"), bad.err());
    }

    @Test
    void balltreeOnOpenClWritesTheCpuFiles(@TempDir Path tmp) throws IOException {
        boolean ci = "true".equalsIgnoreCase(System.getenv("CI"));
        if (!ci) assumeTrue(OpenClDevices.scan().firstUsable().isPresent(), "no OpenCL device: " + OpenClDevices.scan().whyNone());
        Path in = TestData.writeNpy(TestData.blob(3000, 3, 22), tmp.resolve("cloud.npy"));
        for (String[] extra : new String[][] {{}, {"--partition-level", "5"}}) {
            String tag = extra.length == 0 ? "tree" : "part";
            String[] common = {"balltree", in.toString(), "-q"};
            Cli.Result cpu = Cli.run(concat(common, extra, "--out", tmp.resolve(tag + "-cpu").toString()));
            Cli.Result gpu = Cli.run(concat(new String[] {"balltree", in.toString()}, extra, "--backend", "opencl",
                    "--out", tmp.resolve(tag + "-gpu").toString()));
            assertEquals(0, cpu.code(), cpu.err());
            assertEquals(0, gpu.code(), gpu.err());
            assertTrue(gpu.err().contains(" ms on gpu/opencl: "), gpu.err());
            for (String f : extra.length == 0 ? new String[] {"tree_idx.npy", "mask.npy", "offsets.npy", "levels.npy"}
                    : new String[] {"perm.npy"}) {
                assertArrayEquals(Files.readAllBytes(tmp.resolve(tag + "-cpu").resolve(f)),
                        Files.readAllBytes(tmp.resolve(tag + "-gpu").resolve(f)), tag + " " + f);
            }
        }
    }

    @Test
    void balltreeOnCudaWithoutADeviceIsOneClearError(@TempDir Path tmp) throws IOException {
        Path in = TestData.writeNpy(TestData.blob(100, 3, 1), tmp.resolve("cloud.npy"));
        Cli.Result r = Cli.run("balltree", in.toString(), "--backend", "cuda", "--out", tmp.resolve("o").toString());
        assertEquals(2, r.code(), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().contains("CUDA") && r.err().contains("--backend"), r.err());
        assertTrue(Files.notExists(tmp.resolve("o")), "nothing created before the refusal");
        Cli.Result bad = Cli.run("balltree", in.toString(), "--backend", "vector", "--out", tmp.resolve("o").toString());
        assertEquals(2, bad.code(), bad.err());
        assertTrue(bad.err().contains("auto, cpu, scalar, simd, opencl or cuda"), bad.err());
        // the CPU engine's kernel choice with a GPU engine would be ignored: refused, before any device is opened
        for (String api : new String[] {"opencl", "cuda"}) {
            Cli.Result both = Cli.run("balltree", in.toString(), "--backend", api, "--kernels", "vector", "--out",
                    tmp.resolve("o").toString());
            assertEquals(2, both.code(), both.err());
            assertEquals("sylva: error: --kernels chooses the CPU engine's kernels; --backend " + api + " builds on the "
                    + "device: give one of them", both.err().strip());
            assertTrue(Files.notExists(tmp.resolve("o")));
            Cli.Result bench = Cli.run("bench", "balltree", in.toString(), "--backend", api, "--kernels", "scalar",
                    "--repeat", "1");
            assertEquals(2, bench.code(), bench.err());
            assertEquals(both.err().strip(), bench.err().strip(), "the bench refuses it as the command does");
            // and the CPU engine's thread count, which a GPU build would ignore
            Cli.Result threads = Cli.run("balltree", in.toString(), "--backend", api, "--threads", "2", "--out",
                    tmp.resolve("o").toString());
            assertEquals("sylva: error: --threads sets the CPU engine's threads; --backend " + api + " builds on the "
                    + "device: give one of them", threads.err().strip());
            assertTrue(Files.notExists(tmp.resolve("o")));
            Cli.Result benchThreads = Cli.run("bench", "balltree", in.toString(), "--backend", api, "--threads", "2",
                    "--repeat", "1");
            assertEquals(threads.err().strip(), benchThreads.err().strip());
            // a count out of range too: the GPU's refusal first in both
            Cli.Result zero = Cli.run("bench", "balltree", in.toString(), "--backend", api, "--threads", "0");
            assertEquals(threads.err().strip().replace("--threads 2", "--threads 0"), zero.err().strip());
        }
    }

    @Test
    void benchBalltreeTimesTheGpuEngineHostToHostAndOnTheDevice(@TempDir Path tmp) throws IOException {
        boolean ci = "true".equalsIgnoreCase(System.getenv("CI"));
        if (!ci) assumeTrue(OpenClDevices.scan().firstUsable().isPresent(), "no OpenCL device: " + OpenClDevices.scan().whyNone());
        Path in = TestData.writeNpy(TestData.blob(2000, 3, 5), tmp.resolve("cloud.npy"));
        Cli.Result r = Cli.run("bench", "balltree", in.toString(), "--backend", "opencl", "--repeat", "3");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("balltree n=2000 d=3 batches=1 backend=gpu/opencl:") && r.out().contains("median_ms=")
                && r.out().contains("balltree-device n=2000") && r.out().contains("device_median_ms="), r.out());
        Cli.Result cuda = Cli.run("bench", "balltree", in.toString(), "--backend", "cuda", "--repeat", "1");
        assertEquals(2, cuda.code(), cuda.err());
        assertTrue(cuda.err().contains("CUDA"), cuda.err());
    }

    private static String[] concat(String[] a, String[] b, String... c) {
        String[] r = java.util.Arrays.copyOf(a, a.length + b.length + c.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        System.arraycopy(c, 0, r, a.length + b.length, c.length);
        return r;
    }
}
