package org.sylva.gpu;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;

/**
 * Why the system's dynamic loader will not open a library, in its own words ({@code dlerror}): Java's
 * {@code SymbolLookup.libraryLookup} reports only "Cannot open library: NAME", the same for a library that is
 * missing and for one that is there but broken (an empty file, the wrong architecture, a missing dependency), and
 * the two call for different remedies.
 *
 * <pre>{@code
 * String why = LoaderError.of("libOpenCL.so.1");   // e.g. "libOpenCL.so.1: file too short", or null
 * }</pre>
 */
@SuppressWarnings("restricted")   // FFM bindings: restricted calls by design; the launchers allow native access
public final class LoaderError {
    private static final int RTLD_LAZY = 1;

    private LoaderError() {
    }

    /**
     * The loader's message for {@code library} (a name the loader searches for, or a path), or {@code null} when it
     * opens it after all, or when this system's C library offers no {@code dlopen} to ask.
     */
    public static String of(String library) {
        try {
            Linker linker = Linker.nativeLinker();
            SymbolLookup libc = linker.defaultLookup();
            MemorySegment dlopen = libc.find("dlopen").orElse(null);
            MemorySegment dlerror = libc.find("dlerror").orElse(null);
            MemorySegment dlclose = libc.find("dlclose").orElse(null);
            if (dlopen == null || dlerror == null || dlclose == null) return null;
            MethodHandle open = linker.downcallHandle(dlopen, FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_INT));
            MethodHandle error = linker.downcallHandle(dlerror, FunctionDescriptor.of(ADDRESS));
            MethodHandle close = linker.downcallHandle(dlclose, FunctionDescriptor.of(JAVA_INT, ADDRESS));
            try (Arena a = Arena.ofConfined()) {
                // dlerror's message is the calling thread's: asked right after the failed dlopen, on this thread
                MemorySegment handle = (MemorySegment) open.invokeExact(a.allocateFrom(library), RTLD_LAZY);
                if (!handle.equals(MemorySegment.NULL)) {
                    int ignored = (int) close.invokeExact(handle);
                    return null;
                }
                MemorySegment message = (MemorySegment) error.invokeExact();
                return message.equals(MemorySegment.NULL) ? null : message.reinterpret(4096).getString(0);
            }
        } catch (Throwable t) {
            return null;   // a diagnosis, never a failure of its own
        }
    }

    /**
     * Why {@code library}, named by a path (a {@code -Dsylva.*} property), is no library to try: an empty name, a
     * directory, a device or FIFO, a file that does not begin as a shared object does (ELF; the loader's words for
     * it, asked with a {@code dlopen} of our own, where it has them), or one for another architecture (which the
     * loader reports as "No such file"); {@code null} for a path to try, a name
     * the loader searches for, or a path that does not exist (the loader says so). Asked first because the JVM prints
     * a warning of its own about "stack guard" on stderr when asked to load such a file, before any error of ours.
     */
    public static String notALibrary(String library) {
        if (library.isEmpty()) return "the name is empty";
        if (library.indexOf('/') < 0) return null;
        java.nio.file.Path p = java.nio.file.Path.of(library);
        if (java.nio.file.Files.isDirectory(p)) return library + " is a directory, not a library";
        if (!java.nio.file.Files.exists(p)) return null;
        if (!java.nio.file.Files.isRegularFile(p)) return library + " is not a regular file (a device, FIFO or socket)";
        try (java.io.InputStream in = java.nio.file.Files.newInputStream(p)) {
            byte[] head = in.readNBytes(20);
            boolean elf = head.length >= 4 && head[0] == 0x7f && head[1] == 'E' && head[2] == 'L' && head[3] == 'F';
            if (elf) {
                // another architecture's library: the loader calls it "No such file", as if it were missing
                int machine = head.length == 20 ? (head[18] & 0xff) | (head[19] & 0xff) << 8 : -1;
                int ours = switch (System.getProperty("os.arch", "")) {
                    case "amd64", "x86_64" -> 62;
                    case "aarch64" -> 183;
                    default -> -1;   // not checked
                };
                boolean wrong = head.length < 20 || head[4] != 2 || ours >= 0 && machine != ours;
                return wrong ? library + " is an ELF file for another architecture than this JVM's ("
                        + System.getProperty("os.arch") + ", 64-bit)" : null;
            }
            String loader = of(library);   // its own words where it has them ("file too short"), asked directly
            return loader != null ? loader : library + " is not a shared library (it does not begin with an ELF header)";
        } catch (java.io.IOException e) {
            return null;   // the loader says why
        }
    }

    /**
     * Whether {@code reason} ({@link #reason}) says the library is not there at all, rather than there but broken:
     * where installing it is the remedy.
     */
    public static boolean saysMissing(String reason) {
        return reason.contains("No such file") || reason.startsWith("Cannot open library");
    }

    /**
     * The reason to print for a library that would not load: the loader's message where it has one, else Java's
     * ({@code fallback}).
     */
    public static String reason(String library, String fallback) {
        String why = of(library);
        return why != null ? why : fallback;
    }
}
