import java.util.*;
import org.sylva.balltree.*;
import org.sylva.data.PointSet;

/**
 * Where a two-thread 16 384-point build loses time: five builds alternating in one JVM (16 384 points on
 * one and on two threads, the same points as two batches of 8 192 on two threads and on one, and 8 192
 * points alone on one thread), medians and tenth percentiles. Uniform points, seed 42.
 * <pre>
 * javac -cp sylva-core/target/classes -d /tmp/probes bench-notes/probes/Halves.java
 * java --add-modules jdk.incubator.vector -cp sylva-core/target/classes:/tmp/probes Halves 2000
 * </pre>
 */
public class Halves {
    public static void main(String[] a) throws Exception {
        int n = 16384, d = 3;
        float[] c = new float[n * d];
        SplittableRandom r = new SplittableRandom(42);
        for (int i = 0; i < c.length; i++) c[i] = (float) r.nextDouble();
        PointSet all = PointSet.of(n, d, c);
        PointSet half = PointSet.of(n / 2, d, Arrays.copyOf(c, n / 2 * d));
        int[] two = new int[n];
        for (int i = 0; i < n; i++) two[i] = i < n / 2 ? 0 : 1;
        BallTreeBuilder b1 = new BallTreeBuilder().threads(1), b2 = new BallTreeBuilder().threads(2);
        String[] names = {"16384 T1", "16384 T2", "2x8192 batches T2", "8192 T1", "2x8192 batches T1"};
        int k = names.length, rounds = Integer.parseInt(a[0]);
        long end = System.nanoTime() + 6_000_000_000L;
        long[][] t = new long[k][rounds];
        for (int pass = 0; pass < 2; pass++) {
            for (int it = 0; it < rounds; it++) {
                for (int v0 = 0; v0 < k; v0++) {
                    int v = (v0 + it) % k;
                    long t0 = System.nanoTime();
                    switch (v) {
                        case 0 -> b1.build(all);
                        case 1 -> b2.build(all);
                        case 2 -> b2.build(all, two);
                        case 3 -> b1.build(half);
                        case 4 -> b1.build(all, two);
                    }
                    t[v][it] = System.nanoTime() - t0;
                }
            }
        }
        for (int v = 0; v < k; v++) {
            long[] s = t[v].clone();
            Arrays.sort(s);
            System.out.printf("%-20s median %6.0f us  p10 %6.0f%n", names[v], s[rounds / 2] / 1e3, s[rounds / 10] / 1e3);
        }
    }
}
