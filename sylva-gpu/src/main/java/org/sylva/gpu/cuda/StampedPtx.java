package org.sylva.gpu.cuda;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Optional;
import org.sylva.gpu.GpuException;
import org.sylva.gpu.KernelSource;

/**
 * The CUDA kernels as PTX files made ahead of time by {@code gpu/make-ptx.sh} (nvcc, on a machine that
 * has it), for machines with the CUDA driver but no NVRTC. One file per list length {@code K},
 * {@code hdbscan-kK.ptx}, whose first line is the stamp {@code // sylva-kernel-sha256: HEX}, the SHA-256
 * of the exact text NVRTC would compile ({@link KernelSource#compose} with the CUDA prelude). A file
 * whose stamp differs from this build's source is refused, never loaded: it would run other kernels
 * than the ones the exactness tests cover. The directory is the system property
 * {@code sylva.ptx.dir}, else {@code ptx/} beside the jar.
 *
 * <pre>{@code
 * String ptx = StampedPtx.load(StampedPtx.directory().orElseThrow(), 21);
 * }</pre>
 */
public final class StampedPtx {
    /** The stamp's prefix on a PTX file's first line. */
    public static final String STAMP = "// sylva-kernel-sha256: ";
    /** The script that makes the files. */
    public static final String SCRIPT = "gpu/make-ptx.sh";

    private StampedPtx() {
    }

    /** The SHA-256 (hex) of the CUDA source for lists of {@code k}: what a PTX file's stamp must say. */
    public static String sourceHash(int k) {
        return sha256(KernelSource.compose(KernelSource.Api.CUDA, k));
    }

    /** The SHA-256 (hex) of the CUDA ball-tree source: what {@code balltree.ptx}'s stamp must say. */
    public static String treeSourceHash() {
        return sha256(KernelSource.composeTree(KernelSource.Api.CUDA));
    }

    private static String sha256(String text) {
        try {
            byte[] h = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(h);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 missing from the runtime", e);
        }
    }

    /** The file for lists of {@code k} in {@code dir}. */
    public static Path file(Path dir, int k) {
        return dir.resolve("hdbscan-k" + k + ".ptx");
    }

    /** The PTX directory: {@code sylva.ptx.dir}, else {@code ptx/} beside the jar when it exists. */
    public static Optional<Path> directory() {
        String named = System.getProperty("sylva.ptx.dir");
        if (named != null && !named.isBlank()) return Optional.of(Path.of(named));
        try {
            Path jar = Path.of(StampedPtx.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            Path dir = jar.resolveSibling("ptx");
            return Files.isDirectory(dir) ? Optional.of(dir) : Optional.empty();
        } catch (Exception e) {
            return Optional.empty();   // no code source (an unusual class loader): only the property names one
        }
    }

    /** The PTX of {@code dir} for lists of {@code k}, its stamp checked; a {@link GpuException} otherwise. */
    public static String load(Path dir, int k) {
        return loadStamped(file(dir, k), sourceHash(k), "for lists of " + k + (k == 1 ? " entry" : " entries")
                + " (min_samples + 1, or the input's points or distinct points where fewer)");
    }

    /** The ball-tree kernels' PTX of {@code dir} ({@code balltree.ptx}), its stamp checked. */
    public static String loadTree(Path dir) {
        return loadStamped(dir.resolve("balltree.ptx"), treeSourceHash(), "of the ball-tree kernels");
    }

    private static String loadStamped(Path f, String want, String what) {
        String text;
        try {
            text = Files.readString(f, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new GpuException("no PTX file " + f + " " + what + "; make it with " + SCRIPT
                    + " on a machine with nvcc, or install NVRTC");
        }
        String first = text.lines().findFirst().orElse("");
        if (!first.startsWith(STAMP)) {
            throw new GpuException("PTX file " + f + " has no " + STAMP.trim() + " stamp; regenerate it with " + SCRIPT);
        }
        String got = first.substring(STAMP.length()).trim();
        if (!got.equals(want)) {
            throw new GpuException("PTX file " + f + " is stale: it was made from kernel source " + got
                    + ", this build's is " + want + "; regenerate it with " + SCRIPT);
        }
        return text;
    }
}
