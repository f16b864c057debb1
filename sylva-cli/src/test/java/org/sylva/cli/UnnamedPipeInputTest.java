package org.sylva.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sylva.data.PointSet;

/**
 * A pipe named without an extension (a shell's {@code <(zcat clips.npy.gz)}, {@code /dev/fd/63}) is read once and
 * told by its content, as standard input is: a {@code .npy} by NumPy's magic, else a text table; the outputs are
 * those of the same points in a named file.
 */
class UnnamedPipeInputTest {
    @TempDir
    Path tmp;

    /** A FIFO at {@code name} that a daemon thread fills with {@code bytes} once a reader opens it. */
    private Path fifo(String name, byte[] bytes) throws Exception {
        Path fifo = tmp.resolve(name);
        Process mk;
        try {
            mk = new ProcessBuilder("mkfifo", fifo.toString()).start();
        } catch (IOException e) {
            Assumptions.abort("no mkfifo here");
            return null;
        }
        Assumptions.assumeTrue(mk.waitFor() == 0, "mkfifo failed");
        Thread writer = new Thread(() -> {
            try {
                Files.write(fifo, bytes);
            } catch (IOException e) {
                // the reader refused early and closed the pipe: what the test checks is the reader's answer
            }
        });
        writer.setDaemon(true);
        writer.start();
        return fifo;
    }

    @Test
    void anNpyThroughAPipeIsFittedAsTheNamedFile() throws Exception {
        Path file = TestData.writeNpy(TestData.clips(300), tmp.resolve("clips.npy"));
        Cli.run("hdbscan", file.toString(), "--min-cluster-size", "10", "--out", tmp.resolve("named").toString(), "-q")
                .assertOk();
        Path pipe = fifo("63", Files.readAllBytes(file));
        Cli.run("hdbscan", pipe.toString(), "--min-cluster-size", "10", "--out", tmp.resolve("piped").toString(), "-q")
                .assertOk();
        for (String f : new String[] {"labels.npy", "probabilities.npy", "mst.npy"}) {
            assertArrayEquals(Files.readAllBytes(tmp.resolve("named").resolve(f)),
                    Files.readAllBytes(tmp.resolve("piped").resolve(f)), f);
        }
    }

    @Test
    void textThroughAPipeIsPredictedAsTheNamedFile() throws Exception {
        Path points = TestData.writeNpy(TestData.clips(300), tmp.resolve("clips.npy"));
        Path model = tmp.resolve("clips.model");
        Cli.run("hdbscan", points.toString(), "--min-cluster-size", "10", "--out", tmp.resolve("fit").toString(),
                "--save-model", model.toString(), "-q").assertOk();
        PointSet q = TestData.clips(20);
        StringBuilder csv = new StringBuilder();
        for (int i = 0; i < q.size(); i++) {
            for (int j = 0; j < q.dimensions(); j++) csv.append(j == 0 ? "" : ",").append(q.getDouble(i, j));
            csv.append('\n');
        }
        Path named = Files.writeString(tmp.resolve("new.csv"), csv);
        Cli.run("predict", model.toString(), named.toString(), "--out", tmp.resolve("named").toString(), "-q")
                .assertOk();
        Path pipe = fifo("62", csv.toString().getBytes(StandardCharsets.US_ASCII));
        Cli.run("predict", model.toString(), pipe.toString(), "--out", tmp.resolve("piped").toString(), "-q")
                .assertOk();
        assertArrayEquals(Files.readAllBytes(tmp.resolve("named").resolve("labels.npy")),
                Files.readAllBytes(tmp.resolve("piped").resolve("labels.npy")));
    }

    @Test
    void waveformsThroughAPipeAreReadAsTheInputIs() throws Exception {
        Path file = TestData.writeNpy(TestData.clips(200), tmp.resolve("clips.npy"));
        Path pipe = fifo("60", Files.readAllBytes(file));
        Path report = tmp.resolve("r.html");
        Cli.run("hdbscan", file.toString(), "--min-cluster-size", "10", "--waveforms-from", pipe.toString(), "--report",
                report.toString(), "--out", tmp.resolve("o").toString(), "-q").assertOk();
        org.junit.jupiter.api.Assertions.assertTrue(Files.size(report) > 0);
    }

    /** Among several inputs a pipe has no name for its folder (its descriptor's number): refused, as '-' is. */
    @Test
    void aPipeAmongSeveralInputsIsRefused() throws Exception {
        Path file = TestData.writeNpy(TestData.clips(100), tmp.resolve("clips.npy"));
        Path pipe = fifo("59", Files.readAllBytes(file));
        Path out = tmp.resolve("o");
        Cli.run("hdbscan", file.toString(), pipe.toString(), "--out", out.toString())
                .assertError(pipe + " is a pipe, read as standard input is, and can only be the one input of a run");
        Cli.assertNothingWritten(out);
    }

    @Test
    void aZipThroughAPipeIsNamedAndRefused() throws Exception {
        Path pipe = fifo("61", new byte[] {'P', 'K', 3, 4, 0, 0, 0, 0});
        Cli.Result r = Cli.run("hdbscan", pipe.toString(), "--out", tmp.resolve("o").toString());
        assertEquals(2, r.code(), r.err());
        assertEquals("sylva: error: " + pipe + " holds a zip archive (a .npz?): give a .npz by its file name, it is "
                + "read with random access", r.err().strip());
    }
}
