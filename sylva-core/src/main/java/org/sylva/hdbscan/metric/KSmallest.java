package org.sylva.hdbscan.metric;

/**
 * The {@code k} smallest of a stream of values, in a caller's array used as a max-heap (its largest, the
 * k-th smallest so far, at index 0): what the core distances of both exact engines keep for each point,
 * without allocation. Only the values matter, so equal values may enter in any order.
 *
 * <pre>{@code
 * int size = 0;
 * for (double v : values) size = KSmallest.offer(heap, size, k, v);
 * double kth = heap[0];   // once size == k
 * }</pre>
 */
final class KSmallest {
    private KSmallest() {
    }

    /**
     * Offers {@code v} to the heap of {@code size <= k} values in {@code heap[0 .. size)}: added while fewer
     * than {@code k}, else in place of the largest when smaller. Returns the new size.
     */
    static int offer(double[] heap, int size, int k, double v) {
        if (size < k) {
            int c = size;
            while (c > 0) {   // sift up: at most log2(k) steps
                int parent = (c - 1) >>> 1;
                if (heap[parent] >= v) break;
                heap[c] = heap[parent];
                c = parent;
            }
            heap[c] = v;
            return size + 1;
        }
        if (v < heap[0]) {
            int c = 0;
            while (2 * c + 1 < k) {   // sift down: c at least doubles each step, so at most log2(k) steps
                int l = 2 * c + 1, r = l + 1;
                int big = r < k && heap[r] > heap[l] ? r : l;
                if (heap[big] <= v) break;
                heap[c] = heap[big];
                c = big;
            }
            heap[c] = v;
        }
        return size;
    }
}
