package org.sylva.balltree;

/**
 * Loads the ball tree's Vector API kernels ({@code VectorPartition}, {@code VectorLaneSubtrees}) the way
 * {@code org.sylva.backend.Backends} loads the distance kernels: by name, so that this package compiles
 * and runs without the module {@code jdk.incubator.vector}. A kernel is used only when the module is in
 * the boot layer, the system property {@code sylva.balltree.scalar} is not {@code true}, and its class
 * loads and constructs without error (each kernel tests itself when loaded); any failure means "no
 * vector kernel", never an error, and the scalar code runs instead with identical results.
 *
 * <pre>{@code
 * Object k = VectorKernels.load("org.sylva.balltree.VectorPartition");   // null: use the scalar code
 * }</pre>
 */
final class VectorKernels {
    private VectorKernels() { }

    /** A first instance of the kernel class {@code className}, or {@code null} (see the class comment). */
    static Object load(String className) {
        if (Boolean.getBoolean("sylva.balltree.scalar")) return null;
        if (ModuleLayer.boot().findModule("jdk.incubator.vector").isEmpty()) return null;
        try {
            return Class.forName(className).getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            return null;
        }
    }
}
