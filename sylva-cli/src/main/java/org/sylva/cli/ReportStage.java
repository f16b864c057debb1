package org.sylva.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import org.sylva.io.AtomicOutput;
import org.sylva.progress.CancelledException;

/**
 * Stages a command's HTML report beside its outputs without letting a report problem cost the outputs:
 * a report that fails to render (a bug, a shape the drawing code cannot take, the heap) or to be written
 * is left out, and the outputs are committed without it; the command then ends with
 * {@link ReportNotWritten}. The earlier file at the report's path, which would describe another run, is
 * removed in that case ({@link #removeEarlier}), so no old report stands beside new results.
 *
 * <pre>{@code
 * Throwable failure = ReportStage.stage(group, out, report, () -> HtmlReport.render(data));
 * group.commitFolder(out, "hdbscan", () -> { if (failure != null) ReportStage.removeEarlier(report); });
 * if (failure != null) throw new ReportNotWritten(report, out, failure);
 * }</pre>
 */
final class ReportStage {
    /** Makes the report's HTML. */
    @FunctionalInterface
    interface Renderer {
        String render() throws IOException;
    }

    private ReportStage() {
    }

    /** The report's name that is one of Sylva's own in an output folder (the others are the user's). */
    static final String OWN_NAME = "report.html";

    /**
     * Renders the report and stages it in {@code group} as {@code report}; returns null, or the failure
     * (the report is then not staged). Cancellation is not a report failure: it propagates. Staged as the
     * user's chosen file, unless it is {@link #OWN_NAME} in the output folder {@code out}: the manifest then
     * records it as the run's own, which a later run removes when it writes no report there.
     */
    static Throwable stage(AtomicOutput.Group group, Path out, Path report, Renderer renderer) {
        try {
            byte[] bytes = renderer.render().getBytes(StandardCharsets.UTF_8);
            Path own = out.resolve(OWN_NAME).toAbsolutePath().normalize();
            if (report.toAbsolutePath().normalize().equals(own)) group.write(report, o -> o.write(bytes));
            else group.writeChosen(report, o -> o.write(bytes));
            return null;
        } catch (CancelledException e) {
            throw e;
        } catch (RuntimeException | IOException | OutOfMemoryError | StackOverflowError e) {
            // the drawing's memory is garbage now; the outputs, already staged, are what matters
            return e;
        }
    }

    /** Removes the regular file at {@code report} (an earlier run's report); returns whether one was there. */
    static boolean removeEarlier(Path report) throws IOException {
        if (!Files.isRegularFile(report, LinkOption.NOFOLLOW_LINKS)) return false;
        return Files.deleteIfExists(report);
    }
}
