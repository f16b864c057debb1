import java.lang.reflect.*;
import java.net.*;
import java.nio.file.*;
import java.util.*;
/**
 * Two versions of the core against each other in one JVM: each is loaded by its own class loader, their
 * builds alternate (8 s of warm-up first), and the median of the per-pair time ratios (A/B, so above 1
 * means B is faster) is printed. Arguments: classes of A, classes of B, batch size, threads, rounds,
 * and optionally the number of points (default 16 384). Uniform random points in [0, 1)^3, seed 42.
 * <pre>
 * javac -d /tmp/probes bench-notes/probes/ABLoaders.java
 * java --add-modules jdk.incubator.vector -cp /tmp/probes ABLoaders old/sylva-core/target/classes sylva-core/target/classes 16384 2 1501
 * </pre>
 */
public class ABLoaders {
    static Object[] setup(String dir, int n, int size, int threads) throws Exception {
        URLClassLoader cl = new URLClassLoader(new URL[]{Path.of(dir).toUri().toURL()}, ClassLoader.getPlatformClassLoader());
        Class<?> ps = cl.loadClass("org.sylva.data.PointSet"), bb = cl.loadClass("org.sylva.balltree.BallTreeBuilder");
        float[] c = new float[n * 3]; SplittableRandom r = new SplittableRandom(42); for (int i = 0; i < c.length; i++) c[i] = (float) r.nextDouble();
        Object pts = ps.getMethod("of", int.class, int.class, float[].class).invoke(null, n, 3, c);
        Object b = bb.getConstructor().newInstance(); bb.getMethod("threads", int.class).invoke(b, threads);
        int[] ids = null; if (size < n) { ids = new int[n]; for (int i = 0; i < n; i++) ids[i] = i / size; }
        Method build = bb.getMethod("build", ps, int[].class);
        return new Object[]{b, pts, ids, build};
    }
    static long time(Object[] s) throws Exception { long t0 = System.nanoTime(); ((Method) s[3]).invoke(s[0], s[1], s[2]); return System.nanoTime() - t0; }
    public static void main(String[] a) throws Exception {
        int n = a.length > 5 ? Integer.parseInt(a[5]) : 16384, size = Integer.parseInt(a[2]), threads = Integer.parseInt(a[3]), rounds = Integer.parseInt(a[4]);
        Object[] A = setup(a[0], n, size, threads), B = setup(a[1], n, size, threads);
        long end = System.nanoTime() + 8_000_000_000L; while (System.nanoTime() < end) { time(A); time(B); }
        long[] ta = new long[rounds], tb = new long[rounds]; double[] ratio = new double[rounds];
        for (int r = 0; r < rounds; r++) { if ((r & 1) == 0) { ta[r] = time(A); tb[r] = time(B); } else { tb[r] = time(B); ta[r] = time(A); } ratio[r] = (double) ta[r] / tb[r]; }
        Arrays.sort(ta); Arrays.sort(tb); Arrays.sort(ratio);
        System.out.printf("size %d T%d: A(old) %.0f us, B(new) %.0f us, median A/B ratio %.3f%n", size, threads, ta[rounds/2]/1e3, tb[rounds/2]/1e3, ratio[rounds/2]);
    }
}
