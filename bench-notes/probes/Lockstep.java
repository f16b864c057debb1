import java.util.*;
import java.util.concurrent.atomic.*;
import org.sylva.balltree.*;
import org.sylva.data.PointSet;

/**
 * Two one-thread builds at once, outside any pool: two threads, each with its own builder and its own
 * points, start each build together; the second thread parks between builds and is woken for each, as
 * a pool worker is. Prints the first thread's build alone, both builds at once (the second one's time
 * counted from its own start), and the median of the paired ratios (at once / alone).
 * Arguments: points per build, rounds.
 * <pre>
 * javac -cp sylva-core/target/classes -d /tmp/probes bench-notes/probes/Lockstep.java
 * java --add-modules jdk.incubator.vector -cp sylva-core/target/classes:/tmp/probes Lockstep 8192 3000
 * </pre>
 */
public class Lockstep {
    static PointSet pts(long seed, int n) {
        float[] c = new float[n * 3];
        SplittableRandom r = new SplittableRandom(seed);
        for (int i = 0; i < c.length; i++) c[i] = (float) r.nextDouble();
        return PointSet.of(n, 3, c);
    }
    public static void main(String[] a) throws Exception {
        int n = Integer.parseInt(a[0]), rounds = Integer.parseInt(a[1]);
        PointSet p0 = pts(1, n), p1 = pts(2, n);
        long[][] t = new long[2][rounds];
        long[] alone = new long[rounds];
        AtomicInteger gate = new AtomicInteger();
        AtomicInteger done = new AtomicInteger();
        Thread other = new Thread(() -> {
            BallTreeBuilder b = new BallTreeBuilder().threads(1);
            for (int it = 0; it < 2 * rounds; it++) {
                while (gate.get() <= it) java.util.concurrent.locks.LockSupport.park();
                long t0 = System.nanoTime();
                b.build(p1);
                if (it >= rounds) t[1][it - rounds] = System.nanoTime() - t0;
                done.incrementAndGet();
            }
        });
        other.setDaemon(true);
        other.start();
        BallTreeBuilder b = new BallTreeBuilder().threads(1);
        for (int it = 0; it < 2 * rounds; it++) {
            // alone (the other thread spins at the gate meanwhile: it is busy but does no work)
            long t0 = System.nanoTime();
            b.build(p0);
            if (it >= rounds) alone[it - rounds] = System.nanoTime() - t0;
            gate.incrementAndGet(); java.util.concurrent.locks.LockSupport.unpark(other);
            t0 = System.nanoTime();
            b.build(p0);
            if (it >= rounds) t[0][it - rounds] = System.nanoTime() - t0;
            while (done.get() <= it) Thread.onSpinWait();
        }
        long[] s0 = t[0].clone(), s1 = t[1].clone(), sa = alone.clone();
        Arrays.sort(s0); Arrays.sort(s1); Arrays.sort(sa);
        double[] ratio = new double[rounds];
        for (int i = 0; i < rounds; i++) ratio[i] = (double) t[0][i] / alone[i];
        Arrays.sort(ratio);
        System.out.printf("n=%d: alone (other parked) %.0f us; both at once %.0f / %.0f us; paired ratio median %.3f%n",
            n, sa[rounds / 2] / 1e3, s0[rounds / 2] / 1e3, s1[rounds / 2] / 1e3, ratio[rounds / 2]);
    }
}
