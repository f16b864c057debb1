package org.sylva.gpu.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import org.sylva.gpu.KernelSource;

/**
 * The committed scripts of {@code gpu/} against the Java side: {@code make-ptx.sh} composes byte for
 * byte the text NVRTC gets (so its stamps match {@link StampedPtx}); the CUDA-preluded source passes a
 * host C++ compiler's syntax check ({@code cuda-syntax-check.sh}, skipped without g++); and where
 * {@code nvcc} is installed, the PTX it makes loads through the stamp check and holds no fused
 * multiply-add. None of this runs a kernel on a GPU.
 */
class CudaSourceScriptsTest {
    private static final Path GPU = Path.of("..", "gpu");

    private static String run(List<String> cmd, Path dir) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        Process p = pb.start();
        byte[] out = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "timed out: " + cmd);
        String text = new String(out, StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), cmd + ":\n" + text);
        return text;
    }

    private static boolean onPath(String tool) {
        for (String d : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!d.isEmpty() && Files.isExecutable(Path.of(d, tool))) return true;
        }
        return false;
    }

    @Test
    void theScriptComposesWhatNvrtcGets() throws Exception {
        assertEquals(KernelSource.compose(KernelSource.Api.CUDA, 21),
                run(List.of("bash", GPU.resolve("make-ptx.sh").toString(), "--compose", "21"), GPU));
        assertEquals(StampedPtx.sourceHash(7),
                run(List.of("bash", GPU.resolve("make-ptx.sh").toString(), "--hash", "7"), GPU).strip());
        assertEquals(KernelSource.composeTree(KernelSource.Api.CUDA),
                run(List.of("bash", GPU.resolve("make-ptx.sh").toString(), "--compose-tree"), GPU));
        assertEquals(StampedPtx.treeSourceHash(),
                run(List.of("bash", GPU.resolve("make-ptx.sh").toString(), "--hash-tree"), GPU).strip());
    }

    @Test
    void theCudaSourcePassesAHostSyntaxCheck() throws Exception {
        assumeTrue(onPath("g++"), "no g++ here: the CUDA source's syntax check is skipped");
        String out = run(List.of("bash", GPU.resolve("cuda-syntax-check.sh").toString()), GPU);
        assertTrue(out.contains("parses and type-checks") && out.contains("ball-tree kernels"), out);
    }

    @Test
    void nvccMakesStampedPtxThatLoadsAndHasNoFusedMultiplyAdd(@TempDir Path tmp) throws Exception {
        assumeTrue(onPath("nvcc"), "no nvcc here: PTX generation is not checked");
        List<String> cmd = new ArrayList<>(List.of("bash", GPU.resolve("make-ptx.sh").toString(), tmp.toString(), "2", "21"));
        run(cmd, GPU);
        for (int k : new int[] {2, 21}) {
            String ptx = StampedPtx.load(tmp, k);
            assertTrue(ptx.contains(".entry core_lists") && ptx.contains(".entry cheapest_edges"), "k=" + k);
            assertFalse(ptx.contains("fma."), "a fused multiply-add in the PTX for k=" + k);
        }
        String tree = StampedPtx.loadTree(tmp);
        for (String kernel : org.sylva.gpu.GpuBackend.TREE_KERNELS) assertTrue(tree.contains(".entry " + kernel + "("), kernel);
        assertFalse(tree.contains("fma."), "a fused multiply-add in the ball-tree PTX");
    }
}
