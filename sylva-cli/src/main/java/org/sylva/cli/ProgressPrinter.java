package org.sylva.cli;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.Set;
import org.sylva.hdbscan.core.CoreDistances;
import org.sylva.progress.ProgressListener;

/**
 * Shows the library's progress on stderr. On a terminal it keeps one updating line per stage (stage,
 * percent, rate, elapsed, ETA) and repaints it at least twice a second from a small ticker thread, so
 * the line moves even while a long chunk runs; when stderr is not a terminal it prints a plain line at
 * most every {@code plainIntervalMillis}; with {@code quiet} it prints nothing.
 *
 * <p>The stages count their own work units (the core distances count leaves, over up to three passes;
 * a spanning-tree round counts the leaves still active), so the rate is not {@code done / seconds}. A
 * stage whose work covers every input point once shows points per second: the fraction done times the
 * number of points, over the elapsed time (the ball tree and partition, which count points, and the
 * core distances). A spanning-tree round works on a shrinking subset of the points, and an unknown
 * stage on units of its own: their lines show no rate, only the percent, elapsed time and ETA.
 *
 * <p>A run that will take hours gets a warning, once, with its figures, even with {@code quiet}: when a
 * stage that has run at least {@link #LONG_RUN_MEASURED_SECONDS} projects at least
 * {@link #LONG_RUN_SECONDS} more. Its cost depends on how the data cluster, which nothing measures before
 * the work starts, so the projection is the stage's own rate; the neighbour search counts the tiles of its
 * longest pass before running it, so its projection holds from then on.
 *
 * <pre>{@code
 * try (ProgressPrinter p = ProgressPrinter.forStderr(err, context.terminal(), false, points.size())) {
 *     hdbscan.fit(points, p, token);
 * }
 * }</pre>
 */
final class ProgressPrinter implements ProgressListener, AutoCloseable {
    /** Stages whose work covers every input point once (see the class comment); names as the library reports them. */
    static final Set<String> POINT_STAGES = Set.of(CoreDistances.STAGE, "ball tree", "partition");
    /** A stage projecting at least this much more time gets the long-run warning. */
    static final double LONG_RUN_SECONDS = 3600;
    /** ... once it has run this long (its rate measured). */
    static final double LONG_RUN_MEASURED_SECONDS = 10;

    private final PrintWriter out;
    private final boolean terminal;
    private final boolean quiet;
    private final long plainIntervalNanos;
    /** Input points, for the rate of the {@link #POINT_STAGES}; 0 when unknown (no rate shown). */
    private final long points;
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
    private boolean warnedLongRun;
    /** The terminal's width (see {@link #terminalColumns}); repainted lines are cut to one less. */
    private final int columns;

    ProgressPrinter(PrintWriter out, boolean terminal, boolean quiet, long plainIntervalMillis) {
        this(out, terminal, quiet, plainIntervalMillis, 0);
    }

    /** As above, for a computation on {@code points} input points (the rate is shown in points per second). */
    ProgressPrinter(PrintWriter out, boolean terminal, boolean quiet, long plainIntervalMillis, long points) {
        this(out, terminal, quiet, plainIntervalMillis, points,
                terminalColumns(System.getProperty("sylva.columns"), System.getenv("COLUMNS")));
    }

    /** As above, on a terminal {@code columns} wide (see {@link #terminalColumns}). */
    ProgressPrinter(PrintWriter out, boolean terminal, boolean quiet, long plainIntervalMillis, long points,
            int columns) {
        this.columns = columns;
        this.out = out;
        this.points = points;
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
     * otherwise; rates in points per second of the {@code points} input points.
     */
    static ProgressPrinter forStderr(PrintWriter err, boolean terminal, boolean quiet, long points) {
        return new ProgressPrinter(err, terminal, quiet, 2000, points);
    }

    @Override
    public void progress(String stageName, long doneNow, long totalNow) {
        progressAt(stageName, doneNow, totalNow, System.nanoTime());
    }

    /** {@link #progress} at a given {@link System#nanoTime()} (tests pass their own clock). */
    synchronized void progressAt(String stageName, long doneNow, long totalNow, long now) {
        if (!stageName.equals(stage)) {
            if (stage != null && !quiet) finishLine();
            stage = stageName;
            stageStart = now;
            ended = false;
            done = 0;
            total = 0;
            lastPlain = now - plainIntervalNanos; // a stage's first report always prints (nanoTime may be negative)
        }
        // Reports of one stage come from several threads and may arrive out of order: the line keeps the largest
        // fraction seen, so the percentage never goes back (a revised total that lowers it is taken when it grows again).
        boolean behind = doneNow < totalNow && total > 0 && totalNow > 0
                && (ended || (double) doneNow / totalNow < (double) done / total);
        if (!behind) {
            done = doneNow;
            total = totalNow;
        }
        if (!ended && doneNow >= totalNow) {
            ended = true;
            stageEnd = now;
        }
        warnIfLong(now);
        if (quiet) return;
        if (terminal) {
            paint(now);
        } else if (now - lastPlain >= plainIntervalNanos || doneNow >= totalNow) {
            lastPlain = now;
            out.println(line(now));
            out.flush();
        }
    }

    /** The long-run warning (see the class comment), at most once per printer. */
    private void warnIfLong(long now) {
        if (warnedLongRun || ended || total <= 0) return;
        double secs = (now - stageStart) / 1e9;
        double frac = Math.min(1.0, (double) done / total);
        if (secs < LONG_RUN_MEASURED_SECONDS || frac <= 0) return;
        double remaining = secs * (1 - frac) / frac;
        if (remaining < LONG_RUN_SECONDS) return;
        warnedLongRun = true;
        if (terminal && !quiet && lastWidth > 0) {
            out.println();   // keep the progress line; it restarts below the warning
            lastWidth = 0;
        }
        out.println(String.format(Locale.ROOT, "sylva: warning: %s alone is projected to take about %s more on this"
                + " machine (%.1f%% done after %s); Ctrl-C stops the run and leaves no output",
                stage, formatLong(remaining), 100 * frac, formatLong(secs)));
        out.flush();
    }

    /** Seconds as "2 h 05 min", "12 min 30 s" or "45 s". */
    static String formatLong(double s) {
        long t = Math.round(s);
        if (t >= 3600) return String.format(Locale.ROOT, "%d h %02d min", t / 3600, (t % 3600) / 60);
        if (t >= 60) return String.format(Locale.ROOT, "%d min %02d s", t / 60, t % 60);
        return t + " s";
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
        String s = line(now, stage, LABEL_WIDTH);
        int width = columns - 1;
        if (s.length() > width) {   // the name's padding gives way first, then the name, then the figures' end
            s = line(now, stage, 1);
            if (s.length() > width) s = line(now, shorten(stage, stage.length() - (s.length() - width)), 1);
            if (s.length() > width) s = s.substring(0, width);
        }
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

    /** The least fraction of a stage from which its line shows an ETA. */
    static final double ETA_MIN_FRACTION = 0.01;

    /**
     * {@code name} in at most {@code length} characters: its start and end around "..." (a long file name in a
     * "reading NAME" stage keeps its folder's start and its extension), or its start alone below 8 characters.
     */
    static String shorten(String name, int length) {
        if (name.length() <= length) return name;
        if (length < 8) return name.substring(0, Math.max(0, length));
        int head = (length - 3) / 2, tail = length - 3 - head;
        return name.substring(0, head) + "..." + name.substring(name.length() - tail);
    }

    /**
     * The terminal's width in columns: {@code -Dsylva.columns} (the launchers pass the terminal's, read with
     * {@code stty}), else {@code COLUMNS}, else 80; at least 20. A repainted line longer than the terminal would wrap,
     * and {@code \r} returns only to its last row, so the stale rows above would pile up.
     */
    static int terminalColumns(String property, String environment) {
        for (String v : new String[] {property, environment}) {
            if (v == null) continue;
            try {
                int c = Integer.parseInt(v.strip());
                if (c > 0) return Math.max(20, c);
            } catch (NumberFormatException e) {
                // not a number: the next source
            }
        }
        return 80;
    }

    /** The columns a stage's name is padded to, so that the figures of successive stages line up. */
    private static final int LABEL_WIDTH = 24;

    String line(long now) {
        return line(now, stage, LABEL_WIDTH);
    }

    /** The line of the current stage, shown under the name {@code label} padded to {@code pad} columns. */
    private String line(long now, String label, int pad) {
        String name = label.length() >= pad ? label : label + " ".repeat(pad - label.length());
        // A finished stage keeps its final figures while the next one (or an unreported step) runs.
        long until = ended ? stageEnd : now;
        double secs = Math.max(1e-9, (until - stageStart) / 1e9);
        if (done == 0 && total <= 1) {
            // a stage's start marker, (0, 1): its work is not counted yet (the core distances' index is built
            // first, seconds at 500 000 points), so no percentage, rate or ETA that would only mislead
            return String.format(Locale.ROOT, "%s preparing  %.1fs elapsed", name, secs);
        }
        double frac = total > 0 ? Math.min(1.0, (double) done / total) : 0;
        // Rates and ETAs over the first 0.2 s are noise (a chunk may finish in microseconds).
        boolean settled = secs >= 0.2;
        String rate = "";
        if (points > 0 && POINT_STAGES.contains(stage)) {
            rate = (settled ? human(frac * points / secs) : "--") + " points/s  ";
        }
        // and an ETA from under 1 % of a stage is mostly the stage's first units (a search's first leaves,
        // a pass whose share is still a guess): 24 minutes shown for a stage of 10 s
        String eta = settled && frac >= ETA_MIN_FRACTION && frac < 1 ? formatSeconds(secs * (1 - frac) / frac) : "--";
        return String.format(Locale.ROOT, "%s %5.1f%%  %s%.1fs elapsed  ETA %s",
                name, 100 * frac, rate, secs, eta);
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
