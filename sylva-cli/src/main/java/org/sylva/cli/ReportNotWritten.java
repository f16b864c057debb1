package org.sylva.cli;

import java.nio.file.Path;
import java.util.Objects;

/**
 * The outputs of a run were written, but its report was not: rendering or writing it failed. Thrown
 * by a command after it has committed its outputs and printed its summary, so that the results of a
 * long fit are never lost to a report problem; {@link ErrorHandler} prints one line and exits with
 * {@link ExitStatus#REPORT_FAILED}.
 *
 * <pre>{@code
 * if (w.reportFailure() != null) throw new ReportNotWritten(report, out, w.reportFailure());
 * }</pre>
 */
final class ReportNotWritten extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ReportNotWritten(Path report, Path out, Throwable cause) {
        super("the outputs were written to " + out + ", but the report " + report + " could not be made",
                Objects.requireNonNull(cause, "cause"));
    }
}
