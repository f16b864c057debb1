package org.sylva.balltree.engine;

/**
 * Selection of the {@code r}-th smallest point, by the key {@code (x[p], idx[p])}, among candidate
 * positions {@code a[lo..hi)}: introselect with a median-of-three pivot, and a heap sort once the
 * recursion budget ({@code 2 log2 size}) is spent, so the worst case stays {@code O(c log c)}.
 *
 * <p>Keys are distinct (the index breaks coordinate ties), so the answer is unique and the method is a
 * pure function of the candidates. Coordinates are {@link org.sylva.kernels.OrderedBits} keys.
 *
 * <pre>{@code
 * int p = KeySelect.select(candidates, 0, c, r, x, idx);   // position of the r-th smallest key
 * }</pre>
 */
final class KeySelect {
    private static final int INSERTION = 16;

    private KeySelect() { }

    static boolean less(int[] x, int[] idx, int p, int q) {
        int xp = x[p], xq = x[q];
        return xp < xq || (xp == xq && idx[p] < idx[q]);
    }

    /** Rearranges {@code a[lo..hi)} and returns the candidate of rank {@code r} (0-based) among them. */
    static int select(int[] a, int lo, int hi, int r, int[] x, int[] idx) {
        int target = lo + r;
        int budget = 2 * (32 - Integer.numberOfLeadingZeros(hi - lo));
        // Each round shrinks [lo, hi) by at least the pivot: bounded by the size, and by the budget.
        for (int round = 0; hi - lo > INSERTION; round++) {
            if (round >= budget) {
                heapSort(a, lo, hi, x, idx);
                return a[target];
            }
            int mid = lo + ((hi - lo) >>> 1);
            sort3(a, lo, mid, hi - 1, x, idx);
            int pivot = a[mid];
            // Median of three sits at mid; a[lo] <= pivot <= a[hi-1] act as sentinels.
            swap(a, mid, lo + 1);
            int i = lo + 1, j = hi - 1;
            for (int guard = 0; guard <= hi - lo; guard++) {
                do { i++; } while (less(x, idx, a[i], pivot));
                do { j--; } while (less(x, idx, pivot, a[j]));
                if (i >= j) break;
                swap(a, i, j);
            }
            swap(a, lo + 1, j);
            // a[lo..j) < pivot = a[j] < a[j+1..hi)
            if (j == target) return a[j];
            if (j > target) {
                hi = j;
            } else {
                lo = j + 1;
            }
        }
        insertionSort(a, lo, hi, x, idx);
        return a[target];
    }

    private static void sort3(int[] a, int i, int j, int k, int[] x, int[] idx) {
        if (less(x, idx, a[j], a[i])) swap(a, i, j);
        if (less(x, idx, a[k], a[j])) {
            swap(a, j, k);
            if (less(x, idx, a[j], a[i])) swap(a, i, j);
        }
    }

    static void insertionSort(int[] a, int lo, int hi, int[] x, int[] idx) {
        for (int i = lo + 1; i < hi; i++) {
            int v = a[i];
            int j = i - 1;
            while (j >= lo && less(x, idx, v, a[j])) {
                a[j + 1] = a[j];
                j--;
            }
            a[j + 1] = v;
        }
    }

    private static void heapSort(int[] a, int lo, int hi, int[] x, int[] idx) {
        int n = hi - lo;
        for (int i = n / 2 - 1; i >= 0; i--) siftDown(a, lo, i, n, x, idx);
        for (int end = n - 1; end > 0; end--) {
            swap(a, lo, lo + end);
            siftDown(a, lo, 0, end, x, idx);
        }
    }

    private static void siftDown(int[] a, int lo, int i, int n, int[] x, int[] idx) {
        int v = a[lo + i];
        // Each step at least doubles i, so 32 steps exhaust any int-sized heap.
        for (int step = 0; step < 32; step++) {
            int c = 2 * i + 1;
            if (c >= n) break;
            if (c + 1 < n && less(x, idx, a[lo + c], a[lo + c + 1])) c++;
            if (!less(x, idx, v, a[lo + c])) break;
            a[lo + i] = a[lo + c];
            i = c;
        }
        a[lo + i] = v;
    }

    private static void swap(int[] a, int i, int j) {
        int t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}
