import java.util.*;
import java.util.concurrent.*;
import java.util.function.*;

/**
 * Whether this machine runs a loop slower while both vCPUs are busy: three throughput-bound loops (sums
 * over 256 KiB and 16 KiB int arrays, eight independent ALU chains; about 20 ms each), each timed alone
 * and then twice at once on two threads, 40 rounds. Prints the medians of the time alone and of the
 * ratio (each of two at once / alone). Needs nothing from Sylva.
 * <pre>
 * javac -d /tmp/probes bench-notes/probes/TwoCores.java
 * java -cp /tmp/probes TwoCores
 * </pre>
 */
public class TwoCores {
    static volatile long sink;
    static long l2sum(int[] a, int reps) {
        long acc = 0;
        for (int r = 0; r < reps; r++) { int s = 0; for (int i = 0; i < a.length; i++) s += a[i] ^ r; acc += s; }
        return acc;
    }
    static long alu8(int iters) {
        long a0=1,a1=2,a2=3,a3=4,a4=5,a5=6,a6=7,a7=8;
        for (int i = 0; i < iters; i++) {
            a0 = a0*0x9E3779B97F4A7C15L+1; a1 = a1*0x9E3779B97F4A7C15L+1; a2 = a2*0x9E3779B97F4A7C15L+1; a3 = a3*0x9E3779B97F4A7C15L+1;
            a4 = (a4<<7)^(a4>>>3)^i; a5 = (a5<<7)^(a5>>>3)^i; a6 = (a6<<7)^(a6>>>3)^i; a7 = (a7<<7)^(a7>>>3)^i;
        }
        return a0^a1^a2^a3^a4^a5^a6^a7;
    }
    static void test(String name, Supplier<Long> body, ExecutorService ex) throws Exception {
        for (int w = 0; w < 5; w++) sink = body.get();
        double[] ratio = new double[40];
        double[] alone = new double[40];
        for (int r = 0; r < ratio.length; r++) {
            long t0 = System.nanoTime(); sink = body.get(); long al = System.nanoTime() - t0;
            Callable<Long> c = () -> { long s = System.nanoTime(); sink = body.get(); return System.nanoTime() - s; };
            Future<Long> f1 = ex.submit(c), f2 = ex.submit(c);
            long both = (f1.get() + f2.get()) / 2;
            ratio[r] = (double) both / al;
            alone[r] = al / 1e6;
        }
        Arrays.sort(ratio); Arrays.sort(alone);
        System.out.printf("%s: alone median %.1f ms (p10 %.1f, p90 %.1f); both/alone median %.2f, p10 %.2f, p90 %.2f%n", name, alone[20], alone[4], alone[36], ratio[20], ratio[4], ratio[36]);
    }
    public static void main(String[] a) throws Exception {
        ExecutorService ex = Executors.newFixedThreadPool(2);
        int[] l2 = new int[64 * 1024];      // 256 KiB: L2
        int[] l1 = new int[4 * 1024];       // 16 KiB: L1
        for (int i = 0; i < l2.length; i++) l2[i] = i * 31;
        for (int i = 0; i < l1.length; i++) l1[i] = i * 31;
        test("L2 sum 256 KiB", () -> l2sum(l2, 6000), ex);
        test("L1 sum 16 KiB", () -> l2sum(l1, 96000), ex);
        test("ALU 8 chains", () -> alu8(5_000_000), ex);
        ex.shutdown();
    }
}
