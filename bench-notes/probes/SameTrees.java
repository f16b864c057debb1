import java.lang.reflect.*;
import java.net.*;
import java.nio.file.*;
import java.util.*;
/**
 * Whether two versions of the core build the same trees and partitions: each version, loaded by its
 * own class loader, builds four inputs of {@code n} points (uniform, five integer values, Gaussian with
 * one wide dimension, clustered with ties) on one and two threads; one line per case. Arguments: classes
 * of A, classes of B, the number of points.
 * <pre>
 * javac -d /tmp/probes bench-notes/probes/SameTrees.java
 * java -Xmx6g --add-modules jdk.incubator.vector -cp /tmp/probes SameTrees old/sylva-core/target/classes sylva-core/target/classes 1000003
 * </pre>
 */
public class SameTrees {
    public static void main(String[] a) throws Exception {
        int n = Integer.parseInt(a[2]);
        Object[] res = new Object[2];
        for (int v = 0; v < 2; v++) {
            URLClassLoader cl = new URLClassLoader(new URL[]{Path.of(a[v]).toUri().toURL()}, ClassLoader.getPlatformClassLoader());
            Class<?> ps = cl.loadClass("org.sylva.data.PointSet"), bb = cl.loadClass("org.sylva.balltree.BallTreeBuilder");
            List<int[]> out = new ArrayList<>();
            for (int kind = 0; kind < 4; kind++) {
                float[] c = new float[n * 3]; SplittableRandom r = new SplittableRandom(kind);
                for (int i = 0; i < c.length; i++) c[i] = kind == 1 ? (float) r.nextInt(5) : kind == 2 ? (float) (r.nextGaussian() * (i % 3 == 0 ? 100 : 1)) : kind == 3 ? (float) r.nextInt(3) * 1e-3f + (i % 3) : (float) r.nextDouble();
                Object pts = ps.getMethod("of", int.class, int.class, float[].class).invoke(null, n, 3, c);
                for (int th : new int[]{1, 2}) {
                    Object b = bb.getConstructor().newInstance(); bb.getMethod("threads", int.class).invoke(b, th);
                    Object tree = bb.getMethod("build", ps, int[].class).invoke(b, pts, null);
                    out.add((int[]) tree.getClass().getMethod("indices").invoke(tree));
                    out.add((int[]) bb.getMethod("partition", ps, int.class).invoke(b, pts, 9));
                }
            }
            res[v] = out;
        }
        @SuppressWarnings("unchecked") List<int[]> x = (List<int[]>) res[0];
        @SuppressWarnings("unchecked") List<int[]> y = (List<int[]>) res[1];
        for (int i = 0; i < x.size(); i++) System.out.println("case " + i + ": " + (Arrays.equals(x.get(i), y.get(i)) ? "equal" : "DIFFERENT"));
    }
}
