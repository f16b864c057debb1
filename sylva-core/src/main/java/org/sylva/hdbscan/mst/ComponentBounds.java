package org.sylva.hdbscan.mst;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Per component, a real edge of it known so far in a Borůvka round, shared by the scanning threads as a
 * bound: its weight and its {@link EdgeOrder#endpoints}. A candidate that comes strictly after the bound
 * under {@link EdgeOrder} cannot be the component's cheapest edge and is skipped, ties included: on data
 * whose weights tie massively (integer coordinates) a weight-only bound could skip nothing at the tied
 * weight.
 *
 * <p><b>Why readers need no lock.</b> Bounds only fall. A writer (under the component's lock) writes the
 * endpoints first, then the weight, both with release stores; a reader reads the weight first, then the
 * endpoints, both with volatile loads, so it sees at least the endpoints stored before the weight it read.
 * The endpoints a reader sees are those written with the weight it saw or by a later writer, whose edge is
 * no heavier; so the pair read, {@code (w, e)}, is never before some real edge {@code (w', e)} with
 * {@code w' <= w} of the component, and skipping what comes strictly after {@code (w, e)} is safe.
 *
 * <pre>{@code
 * ComponentBounds b = new ComponentBounds(n);
 * b.set(c, 2.5, EdgeOrder.endpoints(3, 7));   // before the scan, single-threaded
 * b.lower(c, 2.5, EdgeOrder.endpoints(1, 9)); // from a scanning thread: same weight, earlier endpoints
 * double w = b.weight(c);                     // read the weight first ...
 * long e = b.endpoints(c);                    // ... then the endpoints
 * }</pre>
 */
final class ComponentBounds {
    private static final int LOCK_STRIPES = 64;

    private final AtomicLongArray weight;
    private final AtomicLongArray endpoints;
    private final Object[] locks = new Object[LOCK_STRIPES];

    /** Bounds for components {@code 0 .. n-1}, all infinite. */
    ComponentBounds(int n) {
        weight = new AtomicLongArray(n);
        endpoints = new AtomicLongArray(n);
        for (int i = 0; i < LOCK_STRIPES; i++) locks[i] = new Object();
    }

    /**
     * Sets component {@code c}'s bound (between scans, when no thread reads it: the scans' threads start
     * after it, which orders these writes before their reads). Release stores, not volatile ones: a round
     * sets every component's bound, and a volatile store's fence each time was a visible share of a small
     * fit.
     */
    void set(int c, double w, long e) {
        endpoints.setRelease(c, e);
        weight.setRelease(c, Double.doubleToRawLongBits(w));
    }

    /** The weight of component {@code c}'s bound; read it before {@link #endpoints}. */
    double weight(int c) {
        return Double.longBitsToDouble(weight.get(c));
    }

    /** The endpoints of component {@code c}'s bound, read after its {@link #weight}. */
    long endpoints(int c) {
        return endpoints.get(c);
    }

    /** Lowers component {@code c}'s bound to the real edge {@code (w, e)} of it if that comes before the bound. */
    void lower(int c, double w, long e) {
        if (!precedes(c, w, e)) return;
        synchronized (locks[c & (LOCK_STRIPES - 1)]) {
            if (!precedes(c, w, e)) return;
            // the weight's release store orders the endpoints before it for a reader that sees the weight
            endpoints.setRelease(c, e);
            weight.setRelease(c, Double.doubleToRawLongBits(w));
        }
    }

    private boolean precedes(int c, double w, long e) {
        double cw = weight(c);
        return w < cw || (w == cw && e < endpoints(c));
    }
}
