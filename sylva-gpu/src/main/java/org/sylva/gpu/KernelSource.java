package org.sylva.gpu;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The kernel sources of the GPU engines ({@code hdbscan.cl.inc}; {@code balltree.cl.inc} for the ball
 * tree) and the prelude of each API that maps
 * the words which differ (kernel and memory qualifiers, barrier, ids, the non-contracting float64
 * operations). {@link #compose} gives the text a compiler receives: prelude, the list length {@code K},
 * then the shared source.
 *
 * <pre>{@code
 * String cl = KernelSource.compose(KernelSource.Api.OPENCL, 21);
 * }</pre>
 */
public final class KernelSource {
    private KernelSource() {
    }

    /** The APIs the source compiles for. */
    public enum Api {
        OPENCL("prelude-opencl.h"), CUDA("prelude-cuda.h");

        final String prelude;

        Api(String prelude) {
            this.prelude = prelude;
        }
    }

    /** The shared kernel source, as committed. */
    public static String kernels() {
        return resource("hdbscan.cl.inc");
    }

    /** The ball-tree kernel source ({@code balltree.cl.inc}), as committed. */
    public static String treeKernels() {
        return resource("balltree.cl.inc");
    }

    /** Prelude, then the ball-tree kernels: the text compiled for {@code GpuTreeEngine} (no constant to define). */
    public static String composeTree(Api api) {
        return prelude(api) + "\n" + treeKernels();
    }

    /** The prelude of {@code api}, as committed. */
    public static String prelude(Api api) {
        return resource(api.prelude);
    }

    /** Prelude, {@code #define K k}, then the kernels: the text compiled for lists of {@code k} entries. */
    public static String compose(Api api, int k) {
        if (k < 1) throw new IllegalArgumentException("list length must be >= 1, got " + k);
        return prelude(api) + "\n#define K " + k + "\n" + kernels();
    }

    private static String resource(String name) {
        try (InputStream in = KernelSource.class.getResourceAsStream(name)) {
            if (in == null) throw new IllegalStateException("kernel resource " + name + " missing from the jar");
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
