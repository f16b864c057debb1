package org.sylva.spark;

import java.io.Serializable;

import org.sylva.hdbscan.mst.BoruvkaRoundState;

/**
 * A Borůvka round's state as it is broadcast to the executors (the core record is not {@link Serializable};
 * a class, not a record, for Kryo: see {@link FitData}).
 */
final class RoundMessage implements Serializable {
    private static final long serialVersionUID = 1L;
    private final int round;
    private final int[] components;
    private final double[] componentWeights;
    private final long[] componentEndpoints;
    private final boolean[] active;

    private RoundMessage(int round, int[] components, double[] componentWeights, long[] componentEndpoints,
                         boolean[] active) {
        this.round = round;
        this.components = components;
        this.componentWeights = componentWeights;
        this.componentEndpoints = componentEndpoints;
        this.active = active;
    }

    static RoundMessage of(int round, BoruvkaRoundState s) {
        return new RoundMessage(round, s.components(), s.componentWeights(), s.componentEndpoints(), s.active());
    }

    int round() {
        return round;
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
