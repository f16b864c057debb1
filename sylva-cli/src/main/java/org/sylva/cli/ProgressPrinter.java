package org.sylva.cli;

import java.io.PrintWriter;
import java.util.Locale;
import org.sylva.progress.ProgressListener;

/**
 * Shows the library's progress on stderr. On a terminal it keeps one updating line per stage (stage,
 * percent, rate, ETA) and repaints it at least twice a second from a small ticker thread, so the line
 * moves even while a long chunk runs; when stderr is not a terminal it prints a plain line at most
 * every {@code plainIntervalMillis}; with {@code quiet} it prints nothing.
 *
 * <pre>{@code
 * try (ProgressPrinter p = ProgressPrinter.forStderr(err, context.terminal(), false)) {
 *     hdbscan.fit(points, p, token);
 * }
 * }</pre>
 */
final class ProgressPrinter implements ProgressListener, AutoCloseable {
    private final PrintWriter out;
    private final boolean terminal;
    private final boolean quiet;
    private final long plainIntervalNanos;
    private final Thread ticker;

    private String stage;
    private long done;
    private long total;
    private long stageStart;
    /** When the stage reached its total (valid if {@code ended}): its line then stops ageing. */
    private long stageEnd;
    private boolean ended;
    private long lastPlain;
    private int lastWidth;

    ProgressPrinter(PrintWriter out, boolean terminal, boolean quiet, long plainIntervalMillis) {
        this.out = out;
        this.terminal = terminal;
        this.quiet = quiet;
        this.plainIntervalNanos = plainIntervalMillis * 1_000_000L;
        if (terminal && !quiet) {
            ticker = Thread.ofPlatform().daemon().name("sylva-progress").unstarted(this::tick);
            ticker.start();
        } else {
            ticker = null;
        }
    }

    /**
     * Progress on a command's stderr writer: an updating line when the process's stderr is a terminal
     * ({@link CliContext#terminal()}), plain lines every two seconds (and at each stage's start and end)
     * otherwise.
     */
    static ProgressPrinter forStderr(PrintWriter err, boolean terminal, boolean quiet) {
        return new ProgressPrinter(err, terminal, quiet, 2000);
    }

    @Override
    public void progress(String stageName, long doneNow, long totalNow) {
        progressAt(stageName, doneNow, totalNow, System.nanoTime());
    }

    /** {@link #progress} at a given {@link System#nanoTime()} (tests pass their own clock). */
    synchronized void progressAt(String stageName, long doneNow, long totalNow, long now) {
        if (quiet) return;
        if (!stageName.equals(stage)) {
            if (stage != null) finishLine();
            stage = stageName;
            stageStart = now;
            ended = false;
            lastPlain = now - plainIntervalNanos; // a stage's first report always prints (nanoTime may be negative)
        }
        done = doneNow;
        total = totalNow;
        if (!ended && doneNow >= totalNow) {
            ended = true;
            stageEnd = now;
        }
        if (terminal) {
            paint(now);
        } else if (now - lastPlain >= plainIntervalNanos || doneNow >= totalNow) {
            lastPlain = now;
            out.println(line(now));
            out.flush();
        }
    }

    private void tick() {
        for (long i = 0; i < Long.MAX_VALUE; i++) {   // ends by interrupt at close()
            try {
                Thread.sleep(400);
            } catch (InterruptedException e) {
                return;
            }
            synchronized (this) {
                if (stage != null) paint(System.nanoTime());
            }
        }
    }

    private void paint(long now) {
        String s = line(now);
        int pad = Math.max(0, lastWidth - s.length());
        out.print("\r" + s + " ".repeat(pad));
        out.flush();
        lastWidth = s.length();
    }

    private void finishLine() {
        if (terminal && stage != null) {
            paint(System.nanoTime());
            out.println();
            lastWidth = 0;
        }
    }

    String line(long now) {
        // A finished stage keeps its final figures while the next one (or an unreported step) runs.
        long until = ended ? stageEnd : now;
        double secs = Math.max(1e-9, (until - stageStart) / 1e9);
        double frac = total > 0 ? Math.min(1.0, (double) done / total) : 0;
        // Rates and ETAs over the first 0.2 s are noise (a chunk may finish in microseconds).
        boolean settled = secs >= 0.2;
        String rate = settled ? human(done / secs) + "/s" : "--/s";
        String eta = settled && frac > 0 && frac < 1 ? formatSeconds(secs * (1 - frac) / frac) : "--";
        return String.format(Locale.ROOT, "%-24s %5.1f%%  %s  %.1fs elapsed  ETA %s",
                stage, 100 * frac, rate, secs, eta);
    }

    private static String human(double v) {
        if (v >= 1e6) return String.format(Locale.ROOT, "%.1fM", v / 1e6);
        if (v >= 1e3) return String.format(Locale.ROOT, "%.1fk", v / 1e3);
        return String.format(Locale.ROOT, "%.0f", v);
    }

    private static String formatSeconds(double s) {
        if (s < 60) return String.format(Locale.ROOT, "%.1fs", s);
        return String.format(Locale.ROOT, "%dm%02ds", (long) s / 60, (long) s % 60);
    }

    @Override
    public synchronized void close() {
        if (ticker != null) ticker.interrupt();
        if (!quiet && stage != null) finishLine();
        stage = null;
    }
}
