import java.util.Arrays;
import java.util.SplittableRandom;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * What bounds the vector partition: the main loop of {@code VectorPartition.partition} (three key
 * columns and the index column, eight points per step, each permuted vector stored at both write
 * positions), timed as it is and with one thing taken away at a time. Variants 1 to 3 produce wrong
 * partitions; only their speed matters. 0: as in the core; 1: only the left store; 2: no permutation;
 * 3: the side to read from alternates instead of depending on the previous step's counts.
 * Argument: the node size.
 * <pre>
 * javac --add-modules jdk.incubator.vector -d /tmp/probes bench-notes/probes/PartitionVariants.java
 * java --add-modules jdk.incubator.vector -cp /tmp/probes PartitionVariants 16384
 * </pre>
 */
public class PartitionVariants {
    static final VectorSpecies<Integer> S = IntVector.SPECIES_256;
    static final int W = 8;
    static final int[] PERMUTATION = permutations();
    static int variant;

    static int[] permutations() {
        int[] t = new int[256 * W];
        for (int m = 0; m < 256; m++) {
            int c = 0;
            for (int i = 0; i < W; i++) if ((m >> i & 1) != 0) t[m * W + c++] = i;
            for (int i = 0; i < W; i++) if ((m >> i & 1) == 0) t[m * W + c++] = i;
        }
        return t;
    }

    static void move(IntVector perm, int[] c, int p, int writeL, int writeR) {
        IntVector v = IntVector.fromArray(S, c, p);
        IntVector moved = variant == 2 ? v : perm.selectFrom(v);
        moved.intoArray(c, writeL);
        if (variant != 1) moved.intoArray(c, writeR - W);
    }

    static int partition(int[][] cols, int[] idx, int s, int e, int[] x, int pc) {
        IntVector pcv = IntVector.broadcast(S, pc);
        int readL = s + W, readR = e - W, writeL = s, writeR = e;
        int vectors = (e - s - 2 * W) / W;
        for (int v = 0; v < vectors; v++) {
            boolean fromLeft = variant == 3 ? (v & 1) == 0 : readL - writeL <= writeR - readR;
            int p = fromLeft ? readL : readR - W;
            readL += fromLeft ? W : 0;
            readR -= fromLeft ? 0 : W;
            int bits = (int) IntVector.fromArray(S, x, p).lt(pcv).toLong();
            IntVector perm = IntVector.fromArray(S, PERMUTATION, bits * W);
            move(perm, cols[0], p, writeL, writeR);
            move(perm, cols[1], p, writeL, writeR);
            move(perm, cols[2], p, writeL, writeR);
            move(perm, idx, p, writeL, writeR);
            int left = Integer.bitCount(bits);
            if (variant == 3) {
                // Keep the write positions clear of the unread points although the reads ignore them.
                writeL = Math.min(writeL + left, readL - W);
                writeR = Math.max(writeR - (W - left), readR + W);
            } else {
                writeL += left;
                writeR -= W - left;
            }
        }
        return writeL;
    }

    public static void main(String[] args) {
        int n = Integer.parseInt(args[0]), reps = 3000;
        int[][] saved = new int[3][n];
        SplittableRandom r = new SplittableRandom(1);
        for (int j = 0; j < 3; j++) for (int i = 0; i < n; i++) saved[j][i] = r.nextInt(1 << 30);
        int[] idxSaved = new int[n];
        for (int i = 0; i < n; i++) idxSaved[i] = i;
        int[] sorted = saved[0].clone();
        Arrays.sort(sorted);
        int pc = sorted[n / 2];
        int[][] cols = new int[3][n];
        int[] idx = new int[n];
        for (int pass = 0; pass < 2; pass++) {
            for (int v = 0; v < 4; v++) {
                variant = v;
                long[] t = new long[reps];
                long sink = 0;
                for (int it = 0; it < 3 * reps; it++) {
                    for (int j = 0; j < 3; j++) System.arraycopy(saved[j], 0, cols[j], 0, n);
                    System.arraycopy(idxSaved, 0, idx, 0, n);
                    long t0 = System.nanoTime();
                    sink += partition(cols, idx, 0, n, cols[0], pc);
                    long t1 = System.nanoTime();
                    if (it >= 2 * reps) t[it - 2 * reps] = t1 - t0;
                }
                Arrays.sort(t);
                if (pass == 1) System.out.printf("variant %d, %d points: %.2f ns per point (%d)%n", v, n, t[reps / 2] / (double) n, sink & 1);
            }
        }
    }
}
