package org.sylva.gpu.cuda;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.sylva.gpu.GpuException;

/**
 * NVRTC, CUDA's run-time compiler ({@code libnvrtc.so.*}, found by {@link NvrtcLocator}), through the
 * FFM API: compiles CUDA C++ source to PTX, the form {@code cuModuleLoadData} takes. The options always
 * include {@code --fmad=false}, because a fused multiply-add rounds once where the CPU rounds twice
 * and the GPU engine must match the CPU bit for bit; a failed compile is a {@link GpuException}
 * carrying the compiler's log.
 *
 * <pre>{@code
 * Nvrtc nvrtc = Nvrtc.open(path);
 * String ptx = nvrtc.compile(source, "hdbscan.cu", 90);   // PTX for compute capability 9.0
 * }</pre>
 */
@SuppressWarnings("restricted")   // FFM bindings: restricted calls by design; the launchers allow native access
public final class Nvrtc {
    private final Path library;
    private final MethodHandle create, compile, logSize, log, ptxSize, ptx, destroy, errorString, version;

    private Nvrtc(Path library, SymbolLookup lib) {
        this.library = library;
        Linker l = Linker.nativeLinker();
        create = h(l, lib, "nvrtcCreateProgram", JAVA_INT, ADDRESS, ADDRESS, ADDRESS, JAVA_INT, ADDRESS, ADDRESS);
        compile = h(l, lib, "nvrtcCompileProgram", JAVA_INT, ADDRESS, JAVA_INT, ADDRESS);
        logSize = h(l, lib, "nvrtcGetProgramLogSize", JAVA_INT, ADDRESS, ADDRESS);
        log = h(l, lib, "nvrtcGetProgramLog", JAVA_INT, ADDRESS, ADDRESS);
        ptxSize = h(l, lib, "nvrtcGetPTXSize", JAVA_INT, ADDRESS, ADDRESS);
        ptx = h(l, lib, "nvrtcGetPTX", JAVA_INT, ADDRESS, ADDRESS);
        destroy = h(l, lib, "nvrtcDestroyProgram", JAVA_INT, ADDRESS);
        errorString = h(l, lib, "nvrtcGetErrorString", ADDRESS, JAVA_INT);
        version = h(l, lib, "nvrtcVersion", JAVA_INT, ADDRESS, ADDRESS);
    }

    private static MethodHandle h(Linker l, SymbolLookup lib, String name, MemoryLayout ret, MemoryLayout... args) {
        MemorySegment sym = lib.find(name).orElseThrow(() -> new GpuException("libnvrtc has no symbol " + name));
        return l.downcallHandle(sym, FunctionDescriptor.of(ret, args));
    }

    /** Loads the library at {@code library}; a {@link GpuException} when it is not a loadable NVRTC. */
    public static Nvrtc open(Path library) {
        // absolute, as the lookup below takes a relative path (from the working directory)
        String notALibrary = org.sylva.gpu.LoaderError.notALibrary(library.toAbsolutePath().toString());
        if (notALibrary != null) throw new GpuException("NVRTC library " + library + " could not be loaded: " + notALibrary);
        try {
            return new Nvrtc(library, SymbolLookup.libraryLookup(library, Arena.global()));
        } catch (IllegalArgumentException | IllegalCallerException e) {
            throw new GpuException("NVRTC library " + library + " could not be loaded: "
                    + org.sylva.gpu.LoaderError.reason(library.toString(), e.getMessage()), e);
        }
    }

    /** The library's path. */
    public Path library() {
        return library;
    }

    /** NVRTC's version, {@code major.minor}. */
    public String version() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment major = a.allocate(JAVA_INT), minor = a.allocate(JAVA_INT);
            check((int) version.invoke(major, minor), "nvrtcVersion");
            return major.get(JAVA_INT, 0) + "." + minor.get(JAVA_INT, 0);
        } catch (GpuException e) {
            throw e;
        } catch (Throwable t) {
            throw new GpuException("nvrtcVersion failed: " + t, t);
        }
    }

    /** The options a compile for compute capability {@code cc} (e.g. 90) gets. */
    public static List<String> options(int cc) {
        return List.of("--gpu-architecture=compute_" + cc, "--fmad=false");
    }

    /** Compiles {@code source} for compute capability {@code cc}; the PTX text. */
    public String compile(String source, String name, int cc) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment prog = a.allocate(ADDRESS);
            check((int) create.invoke(prog, a.allocateFrom(source), a.allocateFrom(name), 0, MemorySegment.NULL,
                    MemorySegment.NULL), "nvrtcCreateProgram");
            MemorySegment p = prog.get(ADDRESS, 0);
            try {
                List<String> opts = options(cc);
                MemorySegment argv = a.allocate(ADDRESS, opts.size());
                for (int i = 0; i < opts.size(); i++) argv.setAtIndex(ADDRESS, i, a.allocateFrom(opts.get(i)));
                int rc = (int) compile.invoke(p, opts.size(), argv);
                if (rc != 0) {
                    throw new GpuException("NVRTC could not compile the CUDA kernels (" + error(rc) + ", options "
                            + opts + "):\n" + programLog(a, p));
                }
                MemorySegment size = a.allocate(JAVA_LONG);
                check((int) ptxSize.invoke(p, size), "nvrtcGetPTXSize");
                MemorySegment text = a.allocate(Math.max(1, size.get(JAVA_LONG, 0)));
                check((int) ptx.invoke(p, text), "nvrtcGetPTX");
                return text.getString(0, StandardCharsets.UTF_8);
            } finally {
                destroy.invoke(prog);
            }
        } catch (GpuException e) {
            throw e;
        } catch (Throwable t) {
            throw new GpuException("NVRTC failed: " + t, t);
        }
    }

    private String programLog(Arena a, MemorySegment p) throws Throwable {
        MemorySegment size = a.allocate(JAVA_LONG);
        if ((int) logSize.invoke(p, size) != 0) return "(no log)";
        MemorySegment text = a.allocate(Math.max(1, size.get(JAVA_LONG, 0)));
        if ((int) log.invoke(p, text) != 0) return "(no log)";
        return text.getString(0, StandardCharsets.UTF_8).strip();
    }

    private void check(int rc, String call) {
        if (rc != 0) throw new GpuException(call + " failed: " + error(rc));
    }

    private String error(int rc) {
        try {
            MemorySegment s = (MemorySegment) errorString.invoke(rc);
            return s.equals(MemorySegment.NULL) ? "NVRTC error " + rc
                    : s.reinterpret(256).getString(0, StandardCharsets.UTF_8);
        } catch (Throwable t) {
            return "NVRTC error " + rc;
        }
    }
}
