package org.sylva.cli;

import org.sylva.balltree.engine.TreeEngine;
import org.sylva.data.InvalidInputException;
import org.sylva.gpu.GpuBackend;
import org.sylva.gpu.GpuEngines;
import org.sylva.gpu.GpuException;
import org.sylva.gpu.GpuHdbscanEngine;
import org.sylva.gpu.GpuTreeEngine;
import org.sylva.hdbscan.Backend;
import org.sylva.hdbscan.Hdbscan;
import picocli.CommandLine;

/**
 * The value of {@code --backend}: a CPU kernel choice ({@link Backend}: auto, scalar, simd) or a GPU API
 * (opencl, cuda); for {@code sylva balltree}, auto or cpu or a GPU API ({@link #tree}). The GPU engines live in {@code sylva-gpu}, which the dependency-free core cannot name,
 * so the command line maps the name here rather than widening {@link Backend}. A GPU API without a
 * usable device is refused before any input is read, with the reason, as a parameter error.
 *
 * <pre>{@code
 * Hdbscan h = EngineChoice.apply("opencl", Hdbscan.builder().minClusterSize(20)).build();
 * }</pre>
 */
public final class EngineChoice {
    /** The names {@link #apply} takes: the CPU kernel choices, then the GPU APIs. */
    public static final String[] NAMES = {"auto", "scalar", "simd", "opencl", "cuda"};

    private EngineChoice() {
    }

    /** Checks the option's value while the command line is parsed, so a wrong name is a usage error. */
    static final class Name implements CommandLine.ITypeConverter<String> {
        @Override
        public String convert(String value) {
            if (GpuEngines.isGpu(value)) return value.trim();
            try {
                return Backend.parse(value).id();
            } catch (InvalidInputException e) {
                throw new CommandLine.TypeConversionException(
                        "backend must be auto, scalar, simd, opencl or cuda; got " + value);
            }
        }
    }

    /**
     * The ball tree's {@code --backend}: auto or cpu (the CPU engine), scalar or simd (the CPU engine on those
     * kernels, the words {@code sylva hdbscan --backend} uses for them), or a GPU API; a usage error otherwise.
     */
    static final class TreeName implements CommandLine.ITypeConverter<String> {
        @Override
        public String convert(String value) {
            String v = value == null ? "" : value.trim().toLowerCase(java.util.Locale.ROOT);
            if (GpuEngines.isGpu(v) || v.equals("auto") || v.equals("cpu") || v.equals("scalar") || v.equals("simd")) {
                return v;
            }
            throw new CommandLine.TypeConversionException("backend must be auto, cpu, scalar, simd, opencl or cuda; got "
                    + value);
        }
    }

    /**
     * The ball-tree engine {@code value} names: {@code null} for auto and cpu (the builder's CPU engine;
     * auto never picks a GPU unasked), else the GPU engine of that API, or a parameter error naming why
     * there is no usable device.
     */
    static TreeEngine tree(String value) {
        if (!GpuEngines.isGpu(value)) return null;
        try {
            return GpuTreeEngine.open(value);
        } catch (GpuException e) {
            throw InvalidInputException.forParameter("backend", e.getMessage());
        }
    }

    /**
     * The GPU engine and device {@code engine} (a fit's or a ball tree's) runs on, as the summary names it
     * ({@code gpu/opencl: NVIDIA H200}, with {@code , a CPU device} for an OpenCL device that is the processor), or
     * null for a CPU engine.
     */
    static String gpuEngine(Object engine) {
        GpuBackend b = gpuBackend(engine);
        return b == null ? null : "gpu/" + b.name() + (b.runsOnProcessor() ? ", a CPU device" : "");
    }

    /**
     * The note for a run asked onto a GPU API whose device is the processor (PoCL's), or null: the kernels then run
     * on the same cores without the CPU engine's pruning and vector kernels, so {@code --backend auto} is faster.
     */
    static String processorNote(Object engine) {
        GpuBackend b = gpuBackend(engine);
        if (b == null || !b.runsOnProcessor()) return null;
        return "sylva: note: the OpenCL device is the processor (" + b.device().platform() + ": " + b.device().name()
                + "); the CPU engine, --backend auto, is usually faster on it";
    }

    /**
     * The engine that ran {@code r}, as {@code --json}'s and the engine protocol's {@code backend} name it: the CPU
     * kernels' choice ({@code auto}, {@code scalar}, {@code simd}), or the engine's name; for a fit the k-d tree engine
     * handed to the brute-force engine (above its dimensions, or where its boxes prune too little), the latter's.
     */
    public static String ran(Hdbscan h, org.sylva.hdbscan.HdbscanResult r) {
        if (h.engine() instanceof org.sylva.hdbscan.engine.CpuHdbscanEngine) return h.backend().id();
        if (h.engine() instanceof org.sylva.hdbscan.metric.KdTreeEngine
                && !org.sylva.hdbscan.metric.KdTreeEngine.ranOnTree(r.timings().seconds())) {
            return new org.sylva.hdbscan.metric.BruteForceEngine(h.metric()).name();
        }
        return h.engine().name();
    }

    private static GpuBackend gpuBackend(Object engine) {
        if (engine instanceof GpuHdbscanEngine g) return g.backend();
        if (engine instanceof GpuTreeEngine t) return t.backend();
        return null;
    }

    /**
     * Sets {@code b}'s backend or engine as {@code value} names; a GPU API without a usable device, or an
     * unknown name, is an {@link InvalidInputException} for the parameter {@code backend}.
     */
    public static Hdbscan.Builder apply(String value, Hdbscan.Builder b) {
        if (GpuEngines.isGpu(value)) {
            try {
                return b.engine(GpuEngines.open(value));
            } catch (GpuException e) {
                throw InvalidInputException.forParameter("backend", e.getMessage());
            }
        }
        try {
            return b.backend(Backend.parse(value));
        } catch (InvalidInputException e) {
            throw InvalidInputException.forParameter("backend",
                    "backend must be auto, scalar, simd, opencl or cuda; got " + value);
        }
    }
}
