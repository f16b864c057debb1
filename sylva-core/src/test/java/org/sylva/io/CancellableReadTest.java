package org.sylva.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedWriter;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.CancelledException;

/**
 * Reading, parsing and writing look at the cancellation token in bounded pieces: a Ctrl-C while a large
 * CSV (200 000 x 61, about 110 MB) is parsed is noticed within a second (in practice milliseconds); a
 * cancelled token stops an {@code .npy} read and an output write, leaving no temporary behind.
 */
class CancellableReadTest {
    /** Generous: the reader looks at the token every 8 KiB of text, a fraction of a millisecond of parsing. */
    static final long LATENCY_LIMIT_MILLIS = 1_000;

    @TempDir
    Path tmp;

    private static Path largeCsv(Path file, int rows, int cols) throws IOException {
        SplittableRandom rng = new SplittableRandom(24);
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.US_ASCII)) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < rows; i++) {
                line.setLength(0);
                for (int j = 0; j < cols; j++) {
                    if (j > 0) line.append(',');
                    int v = rng.nextInt(2_000_000) - 1_000_000;
                    line.append(v / 1000).append('.').append(Math.abs(v % 1000));
                }
                w.append(line).append('\n');
            }
        }
        return file;
    }

    @Test
    void aCancelWhileALargeCsvIsParsedArrivesWithinASecond() throws Exception {
        Path csv = largeCsv(tmp.resolve("large.csv"), 200_000, 61);
        CancellationToken token = new CancellationToken();
        AtomicReference<Throwable> outcome = new AtomicReference<>();
        AtomicLong observedAt = new AtomicLong();
        Thread reader = Thread.ofPlatform().start(() -> {
            try {
                PointReaders.readPoints(csv, Optional.empty(), w -> { }, token);
                outcome.set(new AssertionError("the whole file was read before the cancel"));
            } catch (Throwable t) {
                observedAt.set(System.nanoTime());   // the moment the reader saw the token
                outcome.set(t);
            }
        });
        Thread.sleep(300);   // well inside the read: parsing 110 MB takes seconds
        assertTrue(reader.isAlive(), "the read ended before the cancel; make the file larger");
        long cancelledAt = System.nanoTime();
        token.cancel();
        reader.join(30_000);
        assertInstanceOf(CancelledException.class, outcome.get(), () -> "got " + outcome.get());
        long ms = (observedAt.get() - cancelledAt) / 1_000_000;
        assertTrue(ms < LATENCY_LIMIT_MILLIS, "the reader saw the cancel after " + ms + " ms");
        System.out.println("CSV parse: the reader saw the cancel " + ms + " ms after it (" + Files.size(csv) + " bytes)");
    }

    @Test
    void everyReaderStopsOnACancelledToken() throws IOException {
        CancellationToken cancelled = new CancellationToken();
        cancelled.cancel();
        Path npy = tmp.resolve("a.npy");
        Npy.writeFloat32(npy, new float[] {1, 2, 3, 4}, 2, 2);
        assertThrows(CancelledException.class, () -> Npy.read(npy, cancelled));
        assertThrows(CancelledException.class, () -> PointReaders.readPoints(npy, Optional.empty(), w -> { }, cancelled));
        Path csv = Files.writeString(tmp.resolve("a.csv"), "1,2\n3,4\n");
        assertThrows(CancelledException.class, () -> PointReaders.readPoints(csv, Optional.empty(), w -> { }, cancelled));
        Path raw = Files.write(tmp.resolve("a.f32"), new byte[16]);
        assertThrows(CancelledException.class, () -> PointReaders.readPoints(raw, Optional.of("2,2"), w -> { },
                cancelled));
        assertThrows(CancelledException.class, () -> PointReaders.readPoints("-", Optional.empty(), w -> { },
                new ByteArrayInputStream("1,2\n".getBytes(StandardCharsets.US_ASCII)), cancelled));
        // and a token never cancelled reads as before
        assertEquals(2, PointReaders.readPoints(csv, Optional.empty(), w -> { }, new CancellationToken()).size());
    }

    @Test
    void eachReadHandsOutAtMostOneMebibyte() throws IOException {
        CancellationToken token = new CancellationToken();
        InputStream in = CancellableInputStream.of(new ByteArrayInputStream(new byte[3 << 20]), token);
        byte[] b = new byte[3 << 20];
        assertEquals(CancellableInputStream.CHUNK, in.read(b, 0, b.length));
        token.cancel();
        assertThrows(CancelledException.class, () -> in.read(b, 0, 10));
        assertThrows(CancelledException.class, in::read);
    }

    @Test
    void aCancelWhileALargeOutputIsWrittenStopsItAndLeavesNothing() throws IOException {
        CancellationToken token = new CancellationToken();
        byte[] big = new byte[8 << 20];
        try (AtomicOutput.Group g = AtomicOutput.group(token)) {
            assertThrows(CancelledException.class, () -> g.write(tmp.resolve("out.npy"), out -> {
                out.write(big, 0, 3 << 20);
                token.cancel();   // as Ctrl-C would, half-way through the array
                out.write(big);
            }));
        }
        try (Stream<Path> s = Files.list(tmp)) {
            assertEquals(0, s.count(), "no output, no temporary");
        }
    }

    /**
     * A read blocked where no check can run (a FIFO that delivers nothing more) ends when the token is
     * cancelled: the token closes the stream, and the blocked read, woken with an end or an error, reports
     * the cancellation. Here the stream's read waits until it is closed, as a channel's does; on Linux a
     * real FIFO is exercised by the CLI's SignalLatencyTest.
     */
    @Test
    void cancellingClosesAStreamBlockedInARead() throws Exception {
        java.util.concurrent.CountDownLatch closed = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch reading = new java.util.concurrent.CountDownLatch(1);
        InputStream blocking = new InputStream() {
            @Override
            public int read() throws IOException {
                reading.countDown();
                try {
                    if (!closed.await(30, java.util.concurrent.TimeUnit.SECONDS)) throw new IOException("never closed");
                } catch (InterruptedException e) {
                    throw new IOException(e);
                }
                throw new java.nio.channels.AsynchronousCloseException();
            }

            @Override
            public void close() {
                closed.countDown();
            }
        };
        CancellationToken token = new CancellationToken();
        InputStream in = CancellableInputStream.of(blocking, token);
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread t = Thread.ofPlatform().start(() -> {
            try {
                in.read();
            } catch (Throwable e) {
                thrown.set(e);
            }
        });
        assertTrue(reading.await(10, java.util.concurrent.TimeUnit.SECONDS));
        token.cancel();
        t.join(10_000);
        assertInstanceOf(CancelledException.class, thrown.get());

        // once the stream is closed by its owner, cancelling no longer touches it
        java.util.concurrent.atomic.AtomicInteger closes = new java.util.concurrent.atomic.AtomicInteger();
        CancellationToken other = new CancellationToken();
        InputStream counted = new ByteArrayInputStream(new byte[4]) {
            @Override
            public void close() {
                closes.incrementAndGet();
            }
        };
        CancellableInputStream.of(counted, other).close();
        other.cancel();
        assertEquals(1, closes.get());
    }

    /**
     * Cancelling closes a file's channel under the stream; every call after that, {@code available} included (which
     * {@code BufferedInputStream} makes between reads), reports the cancellation, not the closed channel.
     */
    @Test
    void aStreamTheTokenClosedAnswersEveryCallWithTheCancellation() throws IOException {
        Path f = tmp.resolve("bytes");
        Files.write(f, new byte[3 << 20]);
        CancellationToken token = new CancellationToken();
        InputStream raw = CancellableInputStream.of(Files.newInputStream(f), token);
        try (InputStream in = new java.io.BufferedInputStream(raw, 1 << 16)) {
            assertEquals(1000, in.readNBytes(1000).length);
            token.cancel();   // closes the file's channel
            assertThrows(CancelledException.class, raw::available);
            assertThrows(CancelledException.class, in::available);
            assertThrows(CancelledException.class, () -> in.readNBytes(1 << 17));
            assertThrows(CancelledException.class, () -> in.skip(1 << 17));
        }
    }

    /** A file read with progress tells (0, size) first, about once per MiB, and (size, size) at its end. */
    @Test
    void aTextFileTellsItsBytesRead() throws IOException {
        Path csv = largeCsv(tmp.resolve("p.csv"), 30_000, 20);
        long size = Files.size(csv);
        java.util.List<long[]> told = new java.util.ArrayList<>();
        java.util.Set<String> stages = new java.util.HashSet<>();
        NumericTable t = DelimitedReader.forFile("p.csv").read(csv, new CancellationToken(), (stage, done, total) -> {
            stages.add(stage);
            told.add(new long[] {done, total});
        });
        assertEquals(30_000, t.rows());
        assertEquals(java.util.Set.of("reading p.csv"), stages);
        assertTrue(size > 3 << 20, "a file of several MiB: " + size);
        assertEquals(0, told.get(0)[0]);
        assertEquals(size, told.get(told.size() - 1)[0], "the end is told");
        assertTrue(told.stream().allMatch(r -> r[1] == size), "of the file's size");
        assertTrue(told.size() >= size / (1 << 20) && told.size() <= size / (1 << 20) + 3, told.size() + " reports");
        for (int i = 1; i < told.size(); i++) assertTrue(told.get(i)[0] > told.get(i - 1)[0], "rising");
    }
}
