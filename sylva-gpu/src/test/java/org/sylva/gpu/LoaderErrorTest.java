package org.sylva.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The loader's own reason for a library that will not open, which Java's lookup drops. */
class LoaderErrorTest {
    @Test
    void aBrokenLibraryAndAMissingOneGetTheLoadersReasons(@TempDir Path tmp) throws Exception {
        Path empty = Files.createFile(tmp.resolve("libempty.so"));
        String broken = LoaderError.of(empty.toString());
        assertTrue(broken != null && broken.contains("file too short"), broken);
        String missing = LoaderError.of(tmp.resolve("libnone.so").toString());
        assertTrue(missing != null && missing.contains("No such file"), missing);
        assertNull(LoaderError.of("libc.so.6"), "a library that opens has no error");
        assertTrue(LoaderError.reason(empty.toString(), "Cannot open library").contains("file too short"));
        assertTrue(LoaderError.saysMissing(missing) && !LoaderError.saysMissing(broken));
        assertTrue(LoaderError.saysMissing("Cannot open library: libnone.so"), "Java's own words when dlopen is not found");
    }

    /** A -Dsylva.* path that is no library is told before the JVM is asked to load it (and warns on stderr). */
    @Test
    void aDirectoryOrAFileThatIsNoSharedObjectIsNamedBeforeLoading(@TempDir Path tmp) throws Exception {
        assertEquals(tmp + " is a directory, not a library", LoaderError.notALibrary(tmp.toString()));
        Path text = Files.writeString(tmp.resolve("notes.so"), "not a library");
        String notElf = LoaderError.notALibrary(text.toString());   // the loader's words ("invalid ELF header")
        assertTrue(notElf != null && notElf.contains(text.toString()), notElf);
        assertEquals("the name is empty", LoaderError.notALibrary(""));
        assertNull(LoaderError.notALibrary("libOpenCL.so.1"), "a name the loader searches for is tried");
        assertNull(LoaderError.notALibrary(tmp.resolve("libnone.so").toString()), "the loader says it is missing");
        Path libc = Path.of("/proc/self/exe");   // the JVM's launcher: an ELF file of this machine
        if (Files.isRegularFile(libc)) assertNull(LoaderError.notALibrary(libc.toRealPath().toString()));
        // an ELF file of another machine (the loader would say "No such file", as if it were missing)
        byte[] elf = new byte[64];
        elf[0] = 0x7f;
        elf[1] = 'E';
        elf[2] = 'L';
        elf[3] = 'F';
        elf[4] = 2;   // 64-bit
        String arch = System.getProperty("os.arch");
        int other = arch.equals("aarch64") ? 62 : 183;   // x86-64 on ARM, else ARM64
        elf[18] = (byte) other;
        Path foreign = Files.write(tmp.resolve("libforeign.so"), elf);
        assertEquals(foreign + " is an ELF file for another architecture than this JVM's (" + arch + ", 64-bit)",
                LoaderError.notALibrary(foreign.toString()));
        elf[4] = 1;   // 32-bit
        elf[18] = (byte) (arch.equals("aarch64") ? 183 : 62);
        Path thirtyTwo = Files.write(tmp.resolve("lib32.so"), elf);
        assertTrue(LoaderError.notALibrary(thirtyTwo.toString()).endsWith("another architecture than this JVM's (" + arch
                + ", 64-bit)"));
        assertEquals("/dev/null is not a regular file (a device, FIFO or socket)", LoaderError.notALibrary("/dev/null"));
        assertEquals("900 bytes", DeviceMemory.size(900));
        assertEquals("4.0 KiB", DeviceMemory.size(4096));
        assertEquals("1023.9 KiB", DeviceMemory.size(1048524));
        assertEquals("1.0 MiB", DeviceMemory.size(1048525));
        assertEquals("12.5 MiB", DeviceMemory.size(12L * 1048576 + 524288));
    }
}
