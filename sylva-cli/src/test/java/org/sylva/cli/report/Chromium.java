package org.sylva.cli.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Runs Debian's headless Chromium on a local HTML file, time-bounded, with a fresh profile and every
 * background network feature off: {@code --dump-dom} (the DOM after parsing, plus the browser log on
 * stderr) and {@code --screenshot}.
 */
final class Chromium {
    static final long TIMEOUT_SECONDS = 60;

    /** Output of one run. */
    record Result(int exitCode, String stdout, String stderr) {
    }

    private final Path executable;

    private Chromium(Path executable) {
        this.executable = executable;
    }

    /**
     * The Chromium on this machine: the path in system property {@code sylva.chromium} when set (a path
     * that does not exist means "no Chromium"), else /usr/bin/chromium, or `chromium` /
     * `chromium-browser` on PATH; null if none.
     */
    static Chromium find() {
        String forced = System.getProperty("sylva.chromium");
        if (forced != null && !forced.isBlank()) {
            Path p = Path.of(forced);
            return Files.isRegularFile(p) && Files.isExecutable(p) ? new Chromium(p) : null;
        }
        List<Path> candidates = new ArrayList<>(List.of(Path.of("/usr/bin/chromium")));
        String path = System.getenv("PATH");
        if (path != null) {
            for (String dir : path.split(java.io.File.pathSeparator)) {
                candidates.add(Path.of(dir, "chromium"));
                candidates.add(Path.of(dir, "chromium-browser"));
            }
        }
        for (Path p : candidates) {
            if (Files.isRegularFile(p) && Files.isExecutable(p)) return new Chromium(p);
        }
        return null;
    }

    Result dumpDom(Path html) throws IOException, InterruptedException {
        return run(List.of("--enable-logging=stderr", "--v=0", "--dump-dom", html.toUri().toString()));
    }

    /** As {@link #dumpDom(Path)} in a window of the given size (the layout scripts measure depends on it). */
    Result dumpDom(Path html, int width, int height) throws IOException, InterruptedException {
        return run(List.of("--enable-logging=stderr", "--v=0", "--window-size=" + width + "," + height, "--dump-dom",
                html.toUri().toString()));
    }

    Result screenshot(Path html, Path png, int width, int height) throws IOException, InterruptedException {
        return run(List.of("--screenshot=" + png.toAbsolutePath(), "--window-size=" + width + "," + height,
                "--hide-scrollbars", html.toUri().toString()));
    }

    private Result run(List<String> extra) throws IOException, InterruptedException {
        Path profile = Files.createTempDirectory("sylva-chromium-profile");
        Path out = Files.createTempFile("sylva-chromium", ".out");
        Path err = Files.createTempFile("sylva-chromium", ".err");
        try {
            List<String> cmd = new ArrayList<>(List.of(executable.toString(), "--headless", "--no-sandbox",
                    "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync", "--disable-extensions", "--mute-audio",
                    "--user-data-dir=" + profile));
            cmd.addAll(extra);
            Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                p.waitFor(10, TimeUnit.SECONDS);
                throw new AssertionError("chromium did not finish within " + TIMEOUT_SECONDS + " s: " + cmd);
            }
            return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
            deleteTree(profile);
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) return;
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    // a crash-reporter file still held open: the temp dir is cleaned by the OS later
                }
            }
        }
    }
}
