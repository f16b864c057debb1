package org.sylva.io;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.sylva.data.InvalidInputException;

/**
 * Opening an input file, with the reason it cannot be opened in the words of an error message: missing,
 * permission denied, or a symbolic link whose target is missing or which loops (which the operating system
 * reports alike as "no such file"). One place for every reader, so each says it the same way.
 *
 * The readers of this package open their files through it; outside it, {@link #missing} words the refusal of a
 * file that is not there.
 *
 * <pre>{@code
 * if (Files.notExists(path)) {
 *     throw new InvalidInputException(name + ": " + InputFiles.missing(path));   // "no such file", or the link's story
 * }
 * }</pre>
 */
public final class InputFiles {
    /** Makes the exception a reader throws for a file it cannot open, from the reason and the cause. */
    @FunctionalInterface
    interface Refusal {
        InvalidInputException of(String reason, IOException cause);
    }

    private InputFiles() {
    }

    /** Opens {@code path}; a file missing, denied or behind a broken link is {@code refusal}'s exception. */
    static InputStream open(Path path, Refusal refusal) throws IOException {
        try {
            return Files.newInputStream(path);
        } catch (NoSuchFileException e) {
            throw refusal.of(missing(path), e);
        } catch (AccessDeniedException e) {
            throw refusal.of("permission denied", e);
        } catch (FileSystemException e) {   // a link that loops, say
            if (Files.isSymbolicLink(path)) throw refusal.of(missing(path), e);
            throw e;
        }
    }

    /** "no such file", or what is wrong with the symbolic link {@code p}. */
    public static String missing(Path p) {
        if (!Files.isSymbolicLink(p)) return "no such file";
        Path target;
        try {
            target = Files.readSymbolicLink(p);
        } catch (IOException e) {
            return "is a symbolic link that cannot be read";
        }
        try {
            p.toRealPath();
        } catch (NoSuchFileException e) {
            return "is a symbolic link to " + target + ", which does not exist";
        } catch (FileSystemException e) {
            return "is a symbolic link that loops (to " + target + ")";
        } catch (IOException e) {
            return "is a symbolic link to " + target + ", which cannot be followed";
        }
        return "no such file";
    }
}
