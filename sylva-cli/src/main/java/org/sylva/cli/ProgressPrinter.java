package org.sylva.cli;

import java.io.PrintStream;
import java.util.Locale;
import org.sylva.progress.ProgressListener;

/**
 * Shows the library's progress on stderr. On a terminal it keeps one updating line per stage (stage,
 * percent, rate, ETA) and repaints it at least twice a second from a small ticker thread, so the line
 * moves even while a long chunk runs; when stderr is not a terminal it prints a plain line at most
 * every {@code plainIntervalMillis}; with {@code quiet} it prints nothing.
 *
 * <pre>{@code
 * try (ProgressPrinter p = ProgressPrinter.forStderr(false)) {
 *     hdbscan.fit(points, p, token);
 * }
 * }</pre>
 */
final class ProgressPrinter implements ProgressListener, AutoCloseable {
    private final PrintStream out;
    private final boolean terminal;
    private final boolean quiet;
    private final long plainIntervalNanos;
    private final Thread ticker;

    private String stage;
    private long done;
    private long total;
    private long stageStart;
    private long lastPlain;
    private int lastWidth;

    ProgressPrinter(PrintStream out, boolean terminal, boolean quiet, long plainIntervalMillis) {
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

    static ProgressPrinter forStderr(boolean quiet) {
        java.io.Console c = System.console();
        boolean tty = c != null && c.isTerminal() && System.getenv("TERM") != null && !"dumb".equals(System.getenv("TERM"));
        return new ProgressPrinter(System.err, tty, quiet, 2000);
    }

    @Override
    public synchronized void progress(String stageName, long doneNow, long totalNow) {
        if (quiet) return;
        long now = System.nanoTime();
        if (!stageName.equals(stage)) {
            if (stage != null) finishLine();
            stage = stageName;
            stageStart = now;
            lastPlain = 0;
        }
        done = doneNow;
        total = totalNow;
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
        double secs = Math.max(1e-9, (now - stageStart) / 1e9);
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
