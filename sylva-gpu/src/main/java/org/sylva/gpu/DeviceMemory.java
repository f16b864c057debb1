package org.sylva.gpu;

import java.util.Locale;

/**
 * The check a fit or a build makes before its first buffer: the buffers it will allocate, by name and
 * size, against the device's memory ({@link DeviceSession#memoryBytes()}) and against the largest single
 * buffer the device allows ({@link DeviceSession#largestAllocationBytes()}). Either too large is an
 * {@link org.sylva.data.InsufficientMemoryException} naming the figures, before anything is allocated, instead
 * of an API's error code half-way through.
 *
 * <pre>{@code
 * DeviceMemory.check(session, "the fit", new String[] {"points", "nearest distances"}, new long[] {8L * n * d, 8L * n * k});
 * }</pre>
 */
public final class DeviceMemory {
    private DeviceMemory() {
    }

    /**
     * Refuses {@code what}'s buffers ({@code names[i]} of {@code bytes[i]}) when the device cannot hold them: an
     * {@link org.sylva.data.InsufficientMemoryException}, as the CPU's refusal of a fit its heap cannot hold (the
     * input's size, not a failing device; Python's {@code MemoryError}).
     */
    public static void check(DeviceSession session, String what, String[] names, long[] bytes) {
        if (names.length != bytes.length) throw new IllegalArgumentException("one size per buffer name");
        long total = 0;
        int largest = -1;
        for (int i = 0; i < bytes.length; i++) {
            total += bytes[i];
            if (largest < 0 || bytes[i] > bytes[largest]) largest = i;
        }
        long have = session.memoryBytes();
        if (total > have) {
            throw new org.sylva.data.InsufficientMemoryException(String.format(Locale.ROOT, "%s needs %.1f MiB of device memory, %s has %.1f MiB",
                    what, mib(total), session.deviceName(), mib(have)));
        }
        long most = session.largestAllocationBytes();
        if (largest >= 0 && bytes[largest] > most) {
            throw new org.sylva.data.InsufficientMemoryException(String.format(Locale.ROOT,
                    "%s needs a buffer of %.1f MiB for its %s, more than the largest single buffer %s allows, %.1f MiB",
                    what, mib(bytes[largest]), names[largest], session.deviceName(), mib(most)));
        }
    }

    private static double mib(long bytes) {
        return bytes / 1048576.0;
    }

    /** A buffer's size as a message gives it: {@code "12.5 MiB"}, or in KiB or bytes below a MiB (never "0.0 MiB"). */
    public static String size(long bytes) {
        // from where KiB would print as "1024.0" (1 048 525 bytes, 1023.95 KiB): "1.0 MiB"
        if (bytes >= (1L << 20) - 51) return String.format(Locale.ROOT, "%.1f MiB", mib(bytes));
        if (bytes >= 1L << 10) return String.format(Locale.ROOT, "%.1f KiB", bytes / 1024.0);
        return bytes + (bytes == 1 ? " byte" : " bytes");
    }
}
