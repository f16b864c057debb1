package org.sylva.io;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Another process holding a lock on a file, as a live run holds one on its temporary: locks the file named by its
 * argument, prints {@code locked}, and keeps the lock until its standard input ends.
 */
public final class LockHolder {
    private LockHolder() {
    }

    public static void main(String[] args) throws IOException {
        try (FileChannel ch = FileChannel.open(Path.of(args[0]), StandardOpenOption.WRITE)) {
            ch.lock();
            System.out.println("locked");
            System.out.flush();
            while (System.in.read() >= 0) {
                // until the test closes our standard input
            }
        }
    }
}
