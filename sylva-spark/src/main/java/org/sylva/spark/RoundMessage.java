package org.sylva.spark;

import java.io.Serializable;

import org.sylva.hdbscan.mst.BoruvkaRoundState;

/** A Borůvka round's state as it is broadcast to the executors (the core record is not {@link Serializable}). */
record RoundMessage(int round, int[] components, double[] componentWeights, long[] componentEndpoints,
                    boolean[] active) implements Serializable {
    static RoundMessage of(int round, BoruvkaRoundState s) {
        return new RoundMessage(round, s.components(), s.componentWeights(), s.componentEndpoints(), s.active());
    }

    BoruvkaRoundState state() {
        return new BoruvkaRoundState(components, componentWeights, componentEndpoints, active);
    }

    /** Bytes of the payload (4 per component id, 8 per weight, 8 per endpoints, 1 per flag). */
    long payloadBytes() {
        return 4L * components.length + 8L * componentWeights.length + 8L * componentEndpoints.length
                + active.length;
    }
}
