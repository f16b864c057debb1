package org.sylva.cli.serve;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.sylva.data.InvalidInputException;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.CancelledException;
import org.sylva.progress.ProgressListener;

/**
 * The engine behind the Python package: answers requests read from one stream on another, one at a
 * time, in order, until the requests end. It first writes a {@code hello} (protocol version, Sylva's
 * version, the commands and the {@link FrameLimits}); then each request gets exactly one response,
 * {@code ok}, {@code error} or {@code cancelled}, carrying back the request's {@code id} parameter; a request
 * with {@code "progress": true} also gets {@code progress} frames before its answer ({@link ProgressFrames}).
 *
 * <p>Requests run on one worker thread while this thread goes on reading, so that a {@code cancel}
 * frame reaches the running work: it cancels the request sent last (the client waits for each answer,
 * so that is the one running or about to run), which stops within one chunk of work and answers
 * {@code cancelled}; the engine then takes the next request as usual. It holds at most one request read ahead
 * of the one running, and refuses one beyond ({@link #READ_AHEAD}). A {@code cancel} with nothing
 * running is ignored and answered by nothing. The end of the requests cancels every request read and not yet
 * answered and ends the engine; bytes that are not a frame are answered with a {@code ProtocolError} and end it
 * too (exit status 2). The layout of the frames: {@code docs/engine-protocol.md}.
 *
 * <pre>{@code
 * int status = EngineServer.standard(System.in, stdout, FrameLimits.defaults(), "0.1.0", log, false).run();
 * }</pre>
 */
public final class EngineServer {
    /** The protocol's version, in the {@code hello}; a client refuses an engine of another version. */
    public static final int PROTOCOL = 3;
    /** How long the end of the requests waits for cancelled work to stop. */
    static final long DRAIN_SECONDS = 10;

    private final FrameReader reader;
    private final FrameWriter writer;
    private final Map<String, Handler> handlers;
    private final FrameLimits limits;
    private final String version;
    private final PrintWriter log;
    private final boolean verbose;
    private final ExecutorService worker = Executors.newSingleThreadExecutor(
            Thread.ofPlatform().name("sylva-serve-worker").daemon(true).factory());
    /** The token of the request read last: the one a {@code cancel} frame refers to. */
    private volatile CancellationToken last = new CancellationToken();
    /** The tokens of the requests read and not yet answered: the end of the requests cancels them all. */
    private final java.util.Set<CancellationToken> outstanding = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /**
     * Requests read and not yet answered, at most: the one running and one read ahead (besides one whose answer is
     * being written). A request beyond them is read to its end without its arrays and refused, so that a client that
     * sends requests without reading the answers cannot fill the heap with queued arrays; the reader itself never waits (it would stop reading a client that
     * waits to write while its answers wait to be read), and a client that waits for each answer, as the protocol
     * asks, is never refused.
     */
    static final int READ_AHEAD = 2;
    /**
     * Refusals waiting for the worker to write them, at most: each holds a few hundred bytes, so a client that sends
     * requests without reading the answers ends the engine with a {@code ProtocolError} rather than filling its heap.
     */
    static final int MAX_QUEUED_REFUSALS = 64;
    private final java.util.concurrent.atomic.AtomicInteger refusalsQueued = new java.util.concurrent.atomic.AtomicInteger();

    /** The requests' stream, closed by {@link #stop()}. */
    private final InputStream in;
    /** Set by {@link #stop()}: the requests' stream was closed on purpose, so its end is no error. */
    private volatile boolean stopped;

    EngineServer(InputStream in, OutputStream out, Map<String, Handler> handlers, FrameLimits limits, String version,
            PrintWriter log, boolean verbose) {
        this.in = in;
        this.reader = new FrameReader(in, limits);
        this.writer = new FrameWriter(out);
        this.handlers = Map.copyOf(handlers);
        this.limits = Objects.requireNonNull(limits, "limits");
        this.version = Objects.requireNonNull(version, "version");
        this.log = Objects.requireNonNull(log, "log");
        this.verbose = verbose;
    }

    /**
     * An engine answering {@code hdbscan}, {@code predict}, {@code cut}, {@code validity}, {@code balltree} and
     * {@code partition} requests.
     */
    public static EngineServer standard(InputStream in, OutputStream out, FrameLimits limits, String version,
            PrintWriter log, boolean verbose) {
        return new EngineServer(in, out, standardHandlers(), limits, version, log, verbose);
    }

    /** The commands of {@link #standard}, by name. */
    static Map<String, Handler> standardHandlers() {
        return Map.of("hdbscan", new HdbscanHandler(), "predict", new PredictHandler(), "cut", new CutHandler(),
                "validity", new ValidityHandler(), "balltree", BallTreeHandler.tree(),
                "partition", BallTreeHandler.partition());
    }

    /** Serves until the requests end; returns the exit status (0, or 2 after a broken stream). */
    public int run() {
        try {
            writer.write(hello());
        } catch (IOException e) {
            log.println("sylva serve: cannot write the answers: " + e.getMessage());
            log.flush();
            worker.shutdown();
            return 2;
        }
        try {
            // one pass per frame: the loop ends with the stream of requests (or on a broken one)
            for (;;) {
                Frame f;
                try {
                    f = reader.read(this::busy);
                } catch (RefusedFrameException e) {
                    last = new CancellationToken();   // a cancel sent next refers to the refused frame: no effect
                    Frame error = withId(e.outOfMemory() ? ErrorFrames.frame("MemoryError", e.getMessage(), null)
                            : ErrorFrames.frame("ValueError", e.getMessage(), null), e.id());
                    if (refusalsQueued.incrementAndGet() > MAX_QUEUED_REFUSALS) {
                        throw new ProtocolException("more than " + MAX_QUEUED_REFUSALS + " refusals wait to be "
                                + "written: the client sends requests without reading the answers");
                    }
                    worker.execute(() -> {   // in order, after the answer to the request before
                        refusalsQueued.decrementAndGet();
                        send(error);
                    });
                    continue;
                }
                if (f == null) return 0;
                if (f.kind().equals("cancel")) {
                    last.cancel();
                    continue;
                }
                CancellationToken token = new CancellationToken();
                last = token;
                outstanding.add(token);
                worker.execute(() -> {
                    try {
                        respond(f, token);
                    } finally {
                        outstanding.remove(token);
                    }
                });
            }
        } catch (ProtocolException e) {
            log.println("sylva serve: protocol error: " + e.getMessage());
            log.flush();
            worker.execute(() -> send(ErrorFrames.frame("ProtocolError", e.getMessage(), null)));
            return 2;
        } catch (IOException e) {
            if (stopped) return 0;
            log.println("sylva serve: cannot read the requests: " + e.getMessage());
            log.flush();
            return 2;
        } finally {
            // every request read and not yet answered, not only the last: each still answers, in order (cancelled
            // where it had not finished), before a ProtocolError queued behind them
            last.cancel();
            for (CancellationToken t : outstanding) t.cancel();
            worker.shutdown();
            try {
                if (!worker.awaitTermination(DRAIN_SECONDS, TimeUnit.SECONDS)) {
                    log.println("sylva serve: the last request did not stop within " + DRAIN_SECONDS + " s");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            log.flush();
        }
    }

    /**
     * Ends the service as the end of the requests does (SIGTERM or Ctrl-C to the engine): closes the requests' stream,
     * which wakes {@link #run()}'s blocked read where the stream is interruptible (a channel's, as the CLI's standard
     * input is); every request read and not yet answered is then cancelled and answered, in order, and {@code run}
     * returns 0. Under a signal the process ends once the signal handler's wait is over (under a second,
     * {@code Main.HOOK_WAIT_MILLIS}): a request in a step that checks no cancellation for longer is then left
     * unanswered, as a client's kill would leave it.
     */
    public void stop() {
        stopped = true;
        try {
            in.close();
        } catch (IOException e) {
            // closing is all that is asked; the read it wakes ends the loop either way
        }
    }

    /** Refusals read and not yet written (tests wait on it to know a frame was read). */
    int refusalsWaiting() {
        return refusalsQueued.get();
    }

    /** Why a request arriving now is refused (the engine holds {@link #READ_AHEAD} already), or null. */
    private String busy() {
        return outstanding.size() < READ_AHEAD ? null : "the engine holds " + READ_AHEAD + " requests not yet answered "
                + "(the one running and one read ahead): wait for an answer before sending another request";
    }

    private Frame hello() {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("protocol", PROTOCOL);
        p.put("sylva", version);
        p.put("commands", List.copyOf(new java.util.TreeSet<>(handlers.keySet())));
        p.put("max_json_bytes", limits.maxJsonBytes());
        p.put("max_arrays", limits.maxArrays());
        p.put("max_dims", limits.maxDims());
        p.put("max_array_elements", limits.maxArrayElements());
        p.put("max_frame_bytes", limits.maxFrameBytes());
        p.put("heap_bytes", Runtime.getRuntime().maxMemory());
        p.put("threads", Runtime.getRuntime().availableProcessors());
        return new Frame("hello", p);
    }

    /** Runs one request on the worker thread and writes its one response. */
    private void respond(Frame request, CancellationToken token) {
        Object id = request.params().get("id");
        Map<String, Object> params = new LinkedHashMap<>(request.params());
        params.remove("id");
        boolean progressGiven = params.containsKey("progress");
        Object asked = params.remove("progress");
        ProgressFrames progress = Boolean.TRUE.equals(asked) ? new ProgressFrames(writer, id) : null;
        Frame response;
        try {
            if (progressGiven && !(asked instanceof Boolean)) {
                throw InvalidInputException.forParameter("progress", "progress must be true or false; got " + asked);
            }
            Handler h = handlers.get(request.kind());
            if (h == null) {
                throw new InvalidInputException("unknown command '" + request.kind() + "'; the engine knows "
                        + String.join(", ", new java.util.TreeSet<>(handlers.keySet())));
            }
            for (Handler other : handlers.values()) {
                if (other != h) other.release();   // what one kind of request keeps never holds another's memory
            }
            token.throwIfCancelled();
            response = h.handle(new Frame(request.kind(), params, request.arrays()), token,
                    progress == null ? ProgressListener.NONE : progress);
        } catch (CancelledException e) {
            response = new Frame("cancelled", Map.of("message", "cancelled"));
        } catch (Throwable t) {   // every failure becomes an answer; the engine goes on
            if (verbose || !(t instanceof IllegalArgumentException)) {
                log.println("sylva serve: " + request.kind() + " failed: " + t);
                if (verbose) t.printStackTrace(log);
                log.flush();
            }
            response = ErrorFrames.of(t);
        }
        if (progress != null) progress.close();   // the answer is the request's last frame
        // no longer held before the client can read the answer: a client that sends its next request at once must
        // find the engine holding only what it holds by then (else READ_AHEAD would refuse it)
        outstanding.remove(token);
        send(withId(response, id));
    }

    /** {@code response} carrying back the request's {@code id} (unchanged when {@code id} is null). */
    private static Frame withId(Frame response, Object id) {
        if (id == null) return response;
        Map<String, Object> p = new LinkedHashMap<>(response.params());
        p.put("id", id);
        return new Frame(response.kind(), p, response.arrays());
    }

    private void send(Frame response) {
        try {
            writer.write(response);
        } catch (IOException e) {
            log.println("sylva serve: cannot write a response (has the client gone?): " + e.getMessage());
            log.flush();
        }
    }
}
