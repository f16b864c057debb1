import java.lang.reflect.*;
import java.net.*;
import java.nio.file.*;
import java.util.*;
/**
 * One thread against two in one JVM: builds with a one-thread and a two-thread builder alternate (8 s
 * of warm-up first), and the median of the per-pair ratios is printed, which the machine's changes of
 * speed from one minute to the next affect far less than separate runs.
 * Arguments: the core's classes, the number of points, the batch size, the rounds.
 * <pre>
 * javac -d /tmp/probes bench-notes/probes/ThreadsAB.java
 * java --add-modules jdk.incubator.vector -cp /tmp/probes ThreadsAB sylva-core/target/classes 16384 16384 1001
 * </pre>
 */
public class ThreadsAB {
    public static void main(String[] a) throws Exception {
        String dir = a[0]; int n = Integer.parseInt(a[1]), size = Integer.parseInt(a[2]), rounds = Integer.parseInt(a[3]);
        URLClassLoader cl = new URLClassLoader(new URL[]{Path.of(dir).toUri().toURL()}, ClassLoader.getPlatformClassLoader());
        Class<?> ps = cl.loadClass("org.sylva.data.PointSet"), bb = cl.loadClass("org.sylva.balltree.BallTreeBuilder");
        float[] c = new float[n * 3]; SplittableRandom r = new SplittableRandom(42); for (int i = 0; i < c.length; i++) c[i] = (float) r.nextDouble();
        Object pts = ps.getMethod("of", int.class, int.class, float[].class).invoke(null, n, 3, c);
        int[] ids = null; if (size < n) { ids = new int[n]; for (int i = 0; i < n; i++) ids[i] = i / size; }
        Method build = bb.getMethod("build", ps, int[].class);
        int[] th = {1, 2};
        Object[] b = new Object[2];
        for (int i = 0; i < 2; i++) { b[i] = bb.getConstructor().newInstance(); bb.getMethod("threads", int.class).invoke(b[i], th[i]); }
        long end = System.nanoTime() + 8_000_000_000L; while (System.nanoTime() < end) { build.invoke(b[0], pts, ids); build.invoke(b[1], pts, ids); }
        long[][] t = new long[2][rounds]; double[] ratio = new double[rounds];
        for (int k = 0; k < rounds; k++) {
            for (int q = 0; q < 2; q++) { int i = (k & 1) == 0 ? q : 1 - q; long t0 = System.nanoTime(); build.invoke(b[i], pts, ids); t[i][k] = System.nanoTime() - t0; }
            ratio[k] = (double) t[0][k] / t[1][k];
        }
        Arrays.sort(t[0]); Arrays.sort(t[1]); Arrays.sort(ratio);
        System.out.printf("n %d size %d: 1T %.0f us, 2T %.0f us, median 1T/2T %.3f%n", n, size, t[0][rounds/2]/1e3, t[1][rounds/2]/1e3, ratio[rounds/2]);
    }
}
