package org.sylva.io;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Why a path names no file, in the words of an error message: missing, or a symbolic link whose target is
 * missing, or one that loops, which the operating system reports alike as "no such file".
 *
 * <pre>{@code
 * throw new InvalidInputException(name + ": " + MissingFile.reason(path));   // "no such file", or the link's story
 * }</pre>
 */
final class MissingFile {
    private MissingFile() {
    }

    /** "no such file", or what is wrong with the symbolic link {@code p}. */
    static String reason(Path p) {
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
