package org.sylva.gpu.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where NVRTC is looked for: the toolkit, the distribution, the Python wheel; the versioned file first. */
class NvrtcLocatorTest {
    @Test
    void theWheelsDirectoryUnderEverySitePackagesIsSearched(@TempDir Path tmp) throws IOException {
        Path venv = tmp.resolve("venv");
        Path lib = venv.resolve("lib/python3.12/site-packages/nvidia/cuda_nvrtc/lib");
        Files.createDirectories(lib);
        Files.writeString(lib.resolve("libnvrtc.so.12"), "");
        Files.writeString(lib.resolve("libnvrtc-builtins.so.12.4"), "");
        List<Path> dirs = NvrtcLocator.candidates(Map.of("VIRTUAL_ENV", venv.toString(), "CUDA_HOME", "/opt/cu"),
                tmp.resolve("home"));
        assertEquals(Path.of("/opt/cu/lib64"), dirs.getFirst());
        assertTrue(dirs.contains(Path.of("/usr/local/cuda/lib64")) && dirs.contains(Path.of("/usr/lib/x86_64-linux-gnu")));
        assertTrue(dirs.contains(lib), dirs.toString());
        assertEquals(Optional.of(lib.resolve("libnvrtc.so.12")), NvrtcLocator.search(List.of(tmp.resolve("none"), lib)));
    }

    @Test
    void cuda13sGroupedWheelDirectoryIsSearchedAlsoForAPython3OnThePath(@TempDir Path tmp) throws IOException {
        // CUDA 13's wheels put every library in nvidia/cu13/lib; the environment need not be active,
        // only its python3 on PATH (as an image's /opt/torch/.venv/bin/python3)
        Path env = tmp.resolve("opt/torch/.venv");
        Files.createDirectories(env.resolve("bin"));
        Files.writeString(env.resolve("bin/python3"), "");
        Path lib = env.resolve("lib/python3.12/site-packages/nvidia/cu13/lib");
        Files.createDirectories(lib);
        Files.writeString(lib.resolve("libnvrtc.so.13"), "");
        Files.writeString(lib.resolve("libnvrtc-builtins.so.13.0"), "");
        List<Path> dirs = NvrtcLocator.candidates(Map.of("PATH", "/nonexistent:" + env.resolve("bin")), tmp.resolve("home"));
        assertTrue(dirs.contains(lib), dirs.toString());
        assertTrue(dirs.contains(Path.of("/usr/local/cuda/targets/x86_64-linux/lib")), dirs.toString());
        assertEquals(Optional.of(lib.resolve("libnvrtc.so.13")), NvrtcLocator.search(List.of(lib)));
    }

    @Test
    void theLongestVersionedNameWinsAndAnEmptyPlaceIsSkipped(@TempDir Path tmp) throws IOException {
        Path a = Files.createDirectories(tmp.resolve("a")), b = Files.createDirectories(tmp.resolve("b"));
        for (String f : List.of("libnvrtc.so", "libnvrtc.so.12", "libnvrtc.so.12.4.127")) Files.writeString(b.resolve(f), "");
        assertEquals(Optional.of(b.resolve("libnvrtc.so.12.4.127")), NvrtcLocator.search(List.of(a, b)));
        assertEquals(Optional.empty(), NvrtcLocator.search(List.of(a)));
    }

    @Test
    void thePropertyNamesTheLibrary() {
        String old = System.getProperty("sylva.nvrtc");
        System.setProperty("sylva.nvrtc", "/some/libnvrtc.so.13");
        try {
            assertEquals(Optional.of(Path.of("/some/libnvrtc.so.13")), NvrtcLocator.find());
            // neither NVRTC nor a PTX directory: the refusal names the property's path
            assertTrue(new CudaPtx(Optional.empty(), Optional.empty()).whyNone()
                    .startsWith("no CUDA compiler: -Dsylva.nvrtc=/some/libnvrtc.so.13 does not exist, and"));
            // an empty property is unset: the search is named instead, not an empty path
            System.setProperty("sylva.nvrtc", " ");
            assertTrue(new CudaPtx(Optional.empty(), Optional.empty()).whyNone()
                    .startsWith("no CUDA compiler: NVRTC (libnvrtc.so*) not found in "));
        } finally {
            if (old == null) System.clearProperty("sylva.nvrtc");
            else System.setProperty("sylva.nvrtc", old);
        }
    }
}
