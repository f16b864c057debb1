package org.sylva.io;

import java.nio.file.Path;

/**
 * Another process's cleanup: runs {@link AtomicOutput#deleteOrphansOf} on the target named by its argument and
 * prints how many temporaries it deleted.
 */
public final class OrphanSweep {
    private OrphanSweep() {
    }

    public static void main(String[] args) {
        System.out.println(AtomicOutput.deleteOrphansOf(Path.of(args[0])).size());
    }
}
