package org.sylva.cli.serve;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.sylva.progress.ProgressListener;

/**
 * A request's progress as {@code progress} frames ({@code id}, {@code stage}, {@code done}, {@code total}) written
 * before its answer, for a request that asks for them ({@code "progress": true}): the first report of each stage,
 * its last ({@code done == total}), and in between at most one every {@link #INTERVAL_NANOS}. The library reports
 * from several threads; the frames go out one at a time through the engine's writer, and none after
 * {@link #close()}, which the engine calls before it writes the answer, so the answer is always the last frame.
 *
 * <pre>{@code
 * ProgressFrames progress = new ProgressFrames(writer, 7);
 * Frame answer = handler.handle(request, token, progress);
 * progress.close();
 * writer.write(answer);
 * }</pre>
 */
final class ProgressFrames implements ProgressListener {
    /** The shortest time between two frames of one stage (its first and last report aside). */
    static final long INTERVAL_NANOS = 250_000_000L;

    private final FrameWriter writer;
    private final Object id;
    private String stage;
    private long last;
    private boolean closed;

    ProgressFrames(FrameWriter writer, Object id) {
        this.writer = writer;
        this.id = id;
    }

    @Override
    public synchronized void progress(String stage, long done, long total) {
        if (closed) return;
        long now = System.nanoTime();
        if (stage.equals(this.stage) && done < total && now - last < INTERVAL_NANOS) return;
        this.stage = stage;
        last = now;
        Map<String, Object> p = new LinkedHashMap<>();
        if (id != null) p.put("id", id);
        p.put("stage", stage);
        p.put("done", done);
        p.put("total", total);
        try {
            writer.write(new Frame("progress", p));
        } catch (IOException e) {
            closed = true;   // the client has gone: the answer's own write reports it
        }
    }

    /** No frame after this: the answer follows. */
    synchronized void close() {
        closed = true;
    }
}
