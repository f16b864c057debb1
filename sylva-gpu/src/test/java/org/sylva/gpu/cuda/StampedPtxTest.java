package org.sylva.gpu.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sylva.gpu.GpuException;

/** A PTX file is loaded only when its stamp is this build's kernel source's hash; otherwise a clear error. */
class StampedPtxTest {
    private static final String BODY = "\n.version 8.0\n.target sm_80\n";

    @Test
    void aCurrentStampLoads(@TempDir Path dir) throws IOException {
        String text = StampedPtx.STAMP + StampedPtx.sourceHash(21) + BODY;
        Files.writeString(StampedPtx.file(dir, 21), text);
        assertEquals(text, StampedPtx.load(dir, 21));
    }

    @Test
    void aStaleStampIsRefusedNamingTheScript(@TempDir Path dir) throws IOException {
        Files.writeString(StampedPtx.file(dir, 21), StampedPtx.STAMP + StampedPtx.sourceHash(20) + BODY);
        GpuException e = assertThrows(GpuException.class, () -> StampedPtx.load(dir, 21));
        assertTrue(e.getMessage().contains("is stale") && e.getMessage().contains("gpu/make-ptx.sh"), e.getMessage());
        Files.writeString(StampedPtx.file(dir, 21), BODY);
        e = assertThrows(GpuException.class, () -> StampedPtx.load(dir, 21));
        assertTrue(e.getMessage().contains("no // sylva-kernel-sha256: stamp") && e.getMessage().contains("gpu/make-ptx.sh"),
                e.getMessage());
    }

    @Test
    void aMissingFileNamesTheScript(@TempDir Path dir) {
        GpuException e = assertThrows(GpuException.class, () -> StampedPtx.load(dir, 5));
        assertTrue(e.getMessage().contains("hdbscan-k5.ptx") && e.getMessage().contains("gpu/make-ptx.sh"), e.getMessage());
    }

    @Test
    void eachListLengthHasItsOwnHash() {
        assertEquals(64, StampedPtx.sourceHash(21).length());
        assertTrue(!StampedPtx.sourceHash(21).equals(StampedPtx.sourceHash(22)));
    }
}
