package org.sylva.bench.ab;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;

/**
 * One version of the core for {@link VersionAB}: a jar in its own class loader, driven only through
 * reflection on the public API that every version keeps ({@code PointSet.of}, {@code PointSet.ofFloat64},
 * {@code Hdbscan.builder()}, {@code BallTreeBuilder}), with every method resolved once, outside the timed
 * loops; and {@link Op}, one timed call with its outputs.
 *
 * <pre>{@code
 * try (VersionCore.Core a = new VersionCore.Core("A", Path.of("old/sylva-core.jar"))) { ... }
 * }</pre>
 */
final class VersionCore {
    private VersionCore() { }

    /** A core that cannot be driven (not a sylva-core, or without part of the API): the run stops. */
    static final class NotACore extends RuntimeException {
        NotACore(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** One version of the core: its own class loader and the API's methods, resolved once. */
    static final class Core implements AutoCloseable {
        final String side;
        final Path path;
        final URLClassLoader loader;
        final Method pointSetOf;
        final Method pointSetOfFloat64;
        final Method hdbscanBuilder;
        final Method minClusterSize;
        final Method hdbscanThreads;
        final Method hdbscanBuild;
        final Method fit;
        final Method labels;
        final Constructor<?> treeBuilderNew;
        final Method treeThreads;
        final Method treeBuild;
        final Method indices;
        final Method mask;

        Core(String side, Path path) throws IOException {
            this.side = side;
            this.path = path;
            this.loader = new URLClassLoader("sylva-core-" + side, new URL[] {path.toUri().toURL()},
                    ClassLoader.getPlatformClassLoader());
            try {
                Class<?> pointSet = loader.loadClass("org.sylva.data.PointSet");
                pointSetOf = pointSet.getMethod("of", int.class, int.class, float[].class);
                pointSetOfFloat64 = pointSet.getMethod("ofFloat64", int.class, int.class, double[].class);
                Class<?> hdbscan = loader.loadClass("org.sylva.hdbscan.Hdbscan");
                hdbscanBuilder = hdbscan.getMethod("builder");
                Class<?> builder = hdbscanBuilder.getReturnType();
                minClusterSize = builder.getMethod("minClusterSize", int.class);
                hdbscanThreads = builder.getMethod("threads", int.class);
                hdbscanBuild = builder.getMethod("build");
                fit = hdbscan.getMethod("fit", pointSet);
                labels = fit.getReturnType().getMethod("labels");
                Class<?> treeBuilder = loader.loadClass("org.sylva.balltree.BallTreeBuilder");
                treeBuilderNew = treeBuilder.getConstructor();
                treeThreads = treeBuilder.getMethod("threads", int.class);
                treeBuild = treeBuilder.getMethod("build", pointSet, int[].class);
                indices = treeBuild.getReturnType().getMethod("indices");
                mask = treeBuild.getReturnType().getMethod("mask");
            } catch (ReflectiveOperationException e) {
                loader.close();
                throw new NotACore("side " + side + " (" + path + ") lacks part of the API this harness"
                        + " drives (is it a sylva-core jar or classes directory?): " + e, e);
            }
        }

        Object points(int n, int d, float[] coords) {
            return call(side + ": PointSet.of", pointSetOf, null, n, d, coords.clone());
        }

        Object points(int n, int d, double[] coords) {
            return call(side + ": PointSet.ofFloat64", pointSetOfFloat64, null, n, d, coords.clone());
        }

        Object hdbscan(int minSize, int threads) {
            Object b = call(side + ": Hdbscan.builder", hdbscanBuilder, null);
            b = call(side + ": minClusterSize", minClusterSize, b, minSize);
            b = call(side + ": threads", hdbscanThreads, b, threads);
            return call(side + ": build", hdbscanBuild, b);
        }

        Object treeBuilder(int threads) {
            Object b;
            try {
                b = treeBuilderNew.newInstance();
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(side + ": new BallTreeBuilder() failed: " + e, e);
            }
            return call(side + ": BallTreeBuilder.threads", treeThreads, b, threads);
        }

        @Override
        public void close() throws IOException {
            loader.close();
        }
    }

    static Object call(String what, Method m, Object target, Object... args) {
        try {
            return m.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw new IllegalStateException(what + " threw " + e.getCause(), e.getCause());
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(what + ": " + e, e);
        }
    }

    /** One side's timed call (target.method(args)) and the accessors of its result that must agree. */
    static final class Op {
        final String what;
        final Method method;
        final Object target;
        final Object[] args;
        final Method[] outputs;
        Object last;

        Op(String what, Method method, Object target, Object[] args, Method... outputs) {
            this.what = what;
            this.method = method;
            this.target = target;
            this.args = args;
            this.outputs = outputs;
        }

        long time() {
            long t0 = System.nanoTime();
            Object r = call(what, method, target, args);
            long t = System.nanoTime() - t0;
            last = r;
            return t;
        }

        Object[] outputs() {
            Object[] out = new Object[outputs.length];
            for (int i = 0; i < outputs.length; i++) out[i] = call(what + " result", outputs[i], last);
            return out;
        }
    }
}
