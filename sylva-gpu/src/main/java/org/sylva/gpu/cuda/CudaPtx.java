package org.sylva.gpu.cuda;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.stream.Collectors;
import org.sylva.gpu.GpuException;
import org.sylva.gpu.KernelSource;

/**
 * Where the CUDA kernels' PTX comes from: NVRTC compiling the one kernel source with the CUDA prelude
 * for the device's compute capability ({@code --fmad=false}), or, where NVRTC is absent, the stamped
 * files of {@link StampedPtx}. Neither available is a {@link GpuException} that says where it looked.
 *
 * <pre>{@code
 * CudaPtx src = CudaPtx.find();
 * String ptx = src.ptx(21, 90);
 * }</pre>
 *
 * @param nvrtc the compiler, if found
 * @param ptxDir the directory of stamped PTX files, used only without NVRTC
 */
public record CudaPtx(Optional<Nvrtc> nvrtc, Optional<Path> ptxDir) {
    /** NVRTC if it loads, else the PTX directory if there is one. */
    public static CudaPtx find() {
        Optional<Path> lib = NvrtcLocator.find();
        if (lib.isPresent() && Files.exists(lib.get())) return new CudaPtx(Optional.of(Nvrtc.open(lib.get())), Optional.empty());
        return new CudaPtx(Optional.empty(), StampedPtx.directory());
    }

    /** What compiles the kernels, for logs: {@code nvrtc 12.4 (/usr/local/cuda/lib64/libnvrtc.so.12)}. */
    public String describe() {
        if (nvrtc.isPresent()) return "NVRTC " + nvrtc.get().version() + " (" + nvrtc.get().library() + ")";
        return ptxDir.map(d -> "PTX files of " + d + " (" + StampedPtx.SCRIPT + ")")
                .orElse("nothing: no NVRTC found (-Dsylva.nvrtc=PATH names it) and no PTX directory (-Dsylva.ptx.dir)");
    }

    /**
     * Why nothing can compile the kernels, naming the remedies ({@code -Dsylva.nvrtc=PATH}, or PTX files
     * made by {@link StampedPtx#SCRIPT} in {@code -Dsylva.ptx.dir}); {@code null} when NVRTC loaded or the PTX
     * directory exists. A CUDA device is listed as not usable for this reason, before any fit.
     */
    public String whyNone() {
        if (nvrtc.isPresent() || ptxDir.isPresent() && Files.isDirectory(ptxDir.get())) return null;
        String named = System.getProperty("sylva.nvrtc");   // blank is unset, as NvrtcLocator takes it
        return "no CUDA compiler: " + (named != null && !named.isBlank() ? "-Dsylva.nvrtc=" + named + " does not exist"
                : "NVRTC (libnvrtc.so*) not found in " + NvrtcLocator.searched().stream().map(Path::toString)
                        .collect(Collectors.joining(", ")) + " (name it with -Dsylva.nvrtc=PATH)")
                + ", and " + ptxDir.map(d -> "the PTX directory " + d + (Files.exists(d) ? " is not a directory"
                        : " does not exist") + " (-Dsylva.ptx.dir; make its files with "
                        + StampedPtx.SCRIPT + ")")
                        .orElse("no PTX directory (-Dsylva.ptx.dir=DIR, made by " + StampedPtx.SCRIPT + ")");
    }

    /** The PTX of the ball-tree kernels on a device of compute capability {@code cc}. */
    public String treePtx(int cc) {
        if (nvrtc.isPresent()) return nvrtc.get().compile(KernelSource.composeTree(KernelSource.Api.CUDA), "balltree.cu", cc);
        if (ptxDir.isPresent()) return StampedPtx.loadTree(ptxDir.get());
        return ptx(0, cc);   // neither: the same refusal as the HDBSCAN kernels'
    }

    /** The PTX for lists of {@code k} on a device of compute capability {@code cc} (e.g. 90). */
    public String ptx(int k, int cc) {
        if (nvrtc.isPresent()) return nvrtc.get().compile(KernelSource.compose(KernelSource.Api.CUDA, k), "hdbscan.cu", cc);
        if (ptxDir.isPresent()) return StampedPtx.load(ptxDir.get(), k);
        throw new GpuException(whyNone());
    }
}
