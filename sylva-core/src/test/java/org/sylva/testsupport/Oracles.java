package org.sylva.testsupport;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Locates the reference data in {@code ../shared/oracle}: through the system property
 * {@code sylva.shared} (set by surefire), else beside the repository root. Outside CI a missing oracle
 * skips the test; in CI (environment variable {@code CI} set) it fails.
 */
public final class Oracles {
    private Oracles() {
    }

    public static Path hdbscan() {
        return find("hdbscan");
    }

    /** The {@code hdbscan} package's secondary outputs (prediction, soft clustering, validity, ...). */
    public static Path hdbscanMore() {
        return find("hdbscan-more");
    }

    public static Path balltree() {
        return find("balltree");
    }

    private static Path find(String name) {
        String prop = System.getProperty("sylva.shared");
        if (prop != null && Files.isDirectory(Path.of(prop, "oracle", name))) return Path.of(prop, "oracle", name);
        Path cwd = Path.of("").toAbsolutePath();
        for (Path q = cwd; q != null; q = q.getParent()) {
            Path cand = q.resolve("../shared/oracle").resolve(name).normalize();
            if (Files.isDirectory(cand)) return cand;
        }
        if (System.getenv("CI") == null) assumeTrue(false, "oracle " + name + " not found (sylva.shared=" + prop + ")");
        throw new IllegalStateException("oracle " + name + " not found: sylva.shared=" + prop + ", cwd=" + cwd);
    }
}
