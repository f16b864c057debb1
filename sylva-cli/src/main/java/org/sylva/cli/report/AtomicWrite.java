package org.sylva.cli.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Writes a file so that it is either complete or absent: the bytes go to a sibling
 * {@code NAME.tmp}, which is then renamed over the target (atomically where the file system allows).
 * A failure deletes the temporary. Kept private to the report package until the project-wide atomic
 * output helper replaces it.
 */
final class AtomicWrite {
    private AtomicWrite() {
    }

    static void writeUtf8(Path target, String content) throws IOException {
        Path file = target.toAbsolutePath();
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        boolean done = false;
        try {
            Files.write(tmp, content.getBytes(StandardCharsets.UTF_8));
            try {
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
            done = true;
        } finally {
            if (!done) Files.deleteIfExists(tmp);
        }
    }
}
