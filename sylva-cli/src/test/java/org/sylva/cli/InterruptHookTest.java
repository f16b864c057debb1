package org.sylva.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * What the shutdown hook says on a signal ({@link Main.InterruptHook}), run in-process: the signal's exit status
 * is the JVM's, so the hook's line is the only word on what became of the outputs. (The signal itself, on a real
 * child process: {@link InterruptTest}.)
 */
class InterruptHookTest {
    /** The hook's stderr when the command has returned {@code status} (-1: still running) and a signal came. */
    private static String hook(int status) {
        return hook(status, false);
    }

    /** As {@link #hook(int)}; {@code exiting}: the command called {@code System.exit}, no signal came. */
    private static String hook(int status, boolean exiting) {
        CliContext context = CliContext.inProcess(new ByteArrayInputStream(new byte[0]));
        CountDownLatch finished = new CountDownLatch(status == -1 ? 1 : 0);
        AtomicBoolean shuttingDown = new AtomicBoolean();
        StringWriter err = new StringWriter();
        new Main.InterruptHook(context, finished, shuttingDown, new AtomicInteger(status),
                new AtomicBoolean(exiting), new PrintWriter(new StringWriter(), true), new PrintWriter(err, true)).run();
        assertTrue(shuttingDown.get());
        assertTrue(context.cancel().isCancelled(), "the hook cancels the command's token");
        return err.toString();
    }

    @Test
    void aRunThatEndedWithItsOutputsCompleteIsSaidToHaveKeptThem() {
        assertEquals("sylva: interrupted as the run ended; its outputs were complete and are kept (the exit status is "
                + "the signal's)" + System.lineSeparator(), hook(ExitStatus.OK));
    }

    @Test
    void aNormalExitRunsTheHookAndItSaysNothing() {
        assertEquals("", hook(ExitStatus.OK, true));
    }

    @Test
    void aRunThatReportedItsInterruptionOrItsErrorGetsNoSecondLine() {
        assertEquals("", hook(ExitStatus.INTERRUPTED));
        assertEquals("", hook(ExitStatus.ERROR));
    }

    @Test
    void aRunStillGoingAfterTheWaitIsSaidToHaveWrittenNothing() {
        assertEquals("sylva: interrupted; no output was written" + System.lineSeparator(), hook(-1));
    }
}
