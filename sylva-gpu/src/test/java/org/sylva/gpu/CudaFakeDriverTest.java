package org.sylva.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sylva.gpu.cuda.StampedPtx;

/**
 * The CUDA backend's Java side end to end, without a GPU: a fake {@code libcuda.so.1}
 * ({@code src/test/native/fake-libcuda.cpp}, built here with g++) implements the bound driver calls on
 * the host and runs the CUDA-preluded kernel source on host threads; the backend finds no NVRTC and
 * loads a stamped PTX file, then (the same library standing in for NVRTC, which checks it is given
 * {@code --fmad=false}, the device's architecture and the CUDA-preluded source) compiles at run time;
 * either way the fit must be the CPU's bytes, and so must a ball tree and a partition of the GPU tree
 * engine on the same backend. This checks the bindings (symbols,
 * signatures, the launch-argument array, copies, the PTX fallback), not NVIDIA's compiler or hardware.
 * Skipped without g++.
 */
class CudaFakeDriverTest {
    private static boolean onPath(String tool) {
        for (String d : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!d.isEmpty() && Files.isExecutable(Path.of(d, tool))) return true;
        }
        return false;
    }

    private static String run(List<String> cmd) throws Exception {
        return run(cmd, Map.of());
    }

    private static String run(List<String> cmd, Map<String, String> env) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().putAll(env);
        Process p = pb.start();
        byte[] out = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(240, TimeUnit.SECONDS), "timed out: " + cmd);
        String text = new String(out, StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), String.join(" ", cmd) + ":\n" + text);
        return text;
    }

    @Test
    void theCudaPathThroughAFakeDriverGivesTheCpuBytes(@TempDir Path tmp) throws Exception {
        assumeTrue(onPath("g++"), "no g++ here: the fake CUDA driver cannot be built");
        Path gpu = Path.of("..", "gpu").toAbsolutePath().normalize();
        Files.writeString(tmp.resolve("composed.inc"),
                run(List.of("bash", gpu.resolve("make-ptx.sh").toString(), "--compose", "21")));
        Files.writeString(tmp.resolve("composed-tree.inc"),
                run(List.of("bash", gpu.resolve("make-ptx.sh").toString(), "--compose-tree")));
        Path lib = tmp.resolve("libfakecuda.so");
        run(List.of("g++", "-std=c++17", "-O1", "-shared", "-fPIC", "-pthread", "-Wno-unknown-pragmas",
                "-I", tmp.toString(), "-I", gpu.toString(), "-o", lib.toString(),
                Path.of("src", "test", "native", "fake-libcuda.cpp").toString()));
        Path ptx = Files.createDirectories(tmp.resolve("ptx"));
        // what the fake driver's cuModuleLoadData accepts; the stamp is checked for real
        Files.writeString(StampedPtx.file(ptx, 21), StampedPtx.STAMP + StampedPtx.sourceHash(21)
                + "\n.visible .entry core_lists()\n.visible .entry cheapest_edges()\n");
        Files.writeString(ptx.resolve("balltree.ptx"), StampedPtx.STAMP + StampedPtx.treeSourceHash()
                + "\n.visible .entry bt_init()\n");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String cp = System.getProperty("java.class.path");
        // without NVRTC: the stamped PTX file
        String out = run(List.of(java, "--enable-native-access=ALL-UNNAMED", "-Dsylva.cuda.library=" + lib,
                "-Dsylva.ptx.dir=" + ptx, "-Dsylva.nvrtc=" + tmp.resolve("no-nvrtc.so"), "-cp", cp,
                FakeCudaFit.class.getName()));
        assertTrue(out.contains("same bytes on gpu/cuda: Fake CUDA device (host threads) compiled by PTX files of " + ptx), out);
        assertTrue(out.contains("cuda: Fake CUDA device (host threads) (CUDA driver 12.4, compute capability 9.0, 1.0 GiB): usable")
                && out.contains("cuda: kernels compiled by PTX files of " + ptx), out);
        assertTrue(launches(out) > 10 && out.contains("ball tree: same bytes on gpu/cuda: Fake CUDA device"), out);
        assertTrue(out.contains("widths 256 384"), out);   // cuOccupancyMaxActiveBlocksPerMultiprocessor's answers
        // with "NVRTC" (the fake library's nvrtc* calls check the options and the source they get)
        out = run(List.of(java, "--enable-native-access=ALL-UNNAMED", "-Dsylva.cuda.library=" + lib,
                "-Dsylva.nvrtc=" + lib, "-cp", cp, FakeCudaFit.class.getName()));
        assertTrue(out.contains("compiled by NVRTC 12.4 (" + lib + ")"), out);
        assertTrue(out.contains("fake compiles 2;"), out);
        assertTrue(launches(out) > 10 && out.contains("ball tree: same bytes on gpu/cuda: Fake CUDA device"), out);
        // neither NVRTC nor a PTX directory: listed as not usable, naming both remedies, and never opened
        Path noNvrtc = tmp.resolve("no-nvrtc.so"), noPtx = tmp.resolve("no-ptx");
        out = run(List.of(java, "--enable-native-access=ALL-UNNAMED", "-Dsylva.cuda.library=" + lib,
                "-Dsylva.nvrtc=" + noNvrtc, "-Dsylva.ptx.dir=" + noPtx, "-cp", cp, FakeCudaFit.class.getName(), "no-compiler"));
        String why = "no CUDA compiler: -Dsylva.nvrtc=" + noNvrtc + " does not exist, and the PTX directory " + noPtx
                + " does not exist (-Dsylva.ptx.dir; make its files with gpu/make-ptx.sh)";
        assertTrue(out.contains("cuda: Fake CUDA device (host threads) (CUDA driver 12.4, compute capability 9.0, 1.0 GiB): "
                + "not usable: " + why + "\n"), out);
        assertTrue(out.contains("refused: CUDA backend unavailable: no usable CUDA device: " + why + "; the opencl backend runs the same kernels"), out);
        assertTrue(!out.contains("kernels compiled by") && launches(out) == 0, out);
        // a device whose allocations fail (CUDA_ERROR_OUT_OF_MEMORY): a memory error naming the buffer and the code
        out = run(List.of(java, "--enable-native-access=ALL-UNNAMED", "-Dsylva.cuda.library=" + lib,
                "-Dsylva.ptx.dir=" + ptx, "-Dsylva.nvrtc=" + noNvrtc, "-cp", cp, FakeCudaFit.class.getName(), "out-of-memory"),
                Map.of("SYLVA_FAKE_CUDA_ALLOC_LIMIT", "4096"));
        // (its size in the unit that shows it: a buffer under a MiB is not "0.0 MiB")
        assertTrue(out.matches("(?s).*refused: InsufficientMemoryException: a buffer of [1-9][0-9.]* (KiB|MiB|bytes?) did "
                + "not fit in the CUDA device's free memory \\(cuMemAlloc_v2 failed: CUDA_ERROR_OUT_OF_MEMORY.*"), out);
    }

    private static int launches(String out) {
        return Integer.parseInt(out.strip().replaceAll("(?s).*fake launches (\\d+)$", "$1"));
    }
}
