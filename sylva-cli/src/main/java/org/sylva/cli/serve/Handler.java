package org.sylva.cli.serve;

import org.sylva.progress.CancellationToken;
import org.sylva.progress.ProgressListener;

/**
 * What the engine does for one kind of request: reads the request's parameters and arrays, computes,
 * and returns the {@code ok} response. It checks {@code cancel} between bounded units of work (the
 * library does) and throws {@link org.sylva.progress.CancelledException} once it is cancelled; any
 * other exception becomes an {@code error} response ({@link ErrorFrames}).
 */
interface Handler {
    Frame handle(Frame request, CancellationToken cancel);

    /**
     * As {@link #handle(Frame, CancellationToken)}, reporting to {@code progress} (the request asked for progress
     * frames: {@link ProgressFrames}); a handler whose work is short ignores it.
     */
    default Frame handle(Frame request, CancellationToken cancel, ProgressListener progress) {
        return handle(request, cancel);
    }

    /**
     * Lets go of what the handler keeps between its requests ({@link PredictHandler}'s last model): the
     * engine calls it before a request of another kind, whose memory it would otherwise take.
     */
    default void release() {
    }
}
