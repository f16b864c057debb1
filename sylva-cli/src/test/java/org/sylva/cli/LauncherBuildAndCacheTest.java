package org.sylva.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher's first-use steps (bin/find-jdk.sh, bin/sylva-java.sh's start-up cache training): Maven is needed
 * only to build, and a training JVM that Ctrl-C ended (status 130, which the JVM exits with instead of dying of the
 * signal, so a shell would carry on) stops the training with that status, where a failed one is no error; a signal
 * to the launcher's shell kills the training JVM and its processes at once.
 */
class LauncherBuildAndCacheTest {
    private static final Path BIN = Path.of("..", "bin").toAbsolutePath().normalize();

    private static String[] bash(String cmd) throws Exception {
        Process p = new ProcessBuilder("bash", "-c", cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        return new String[] {Integer.toString(p.waitFor()), out};
    }

    /** A stand-in for java: writes the cache a -XX:AOTCacheOutput= option names, then exits with $FAKE_STATUS. */
    private static Path fakeJava(Path dir) throws Exception {
        Path java = dir.resolve("java");
        Files.writeString(java, """
                #!/usr/bin/env bash
                for a in "$@"; do case "$a" in -XX:AOTCacheOutput=*) : > "${a#*=}" ;; esac; done
                exit "${FAKE_STATUS:-0}"
                """);
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        return java;
    }

    private String[] train(Path tmp, int status) throws Exception {
        Path java = fakeJava(tmp);
        Path work = Files.createDirectories(tmp.resolve("tmp-" + status));
        return bash("export TMPDIR='" + work + "' FAKE_STATUS=" + status + "; . '" + BIN.resolve("sylva-java.sh") + "'; "
                + "sylva_train_aot '" + java + "' '" + tmp.resolve("x.jar") + "' '" + tmp.resolve("c" + status + ".aot")
                + "'; echo \"status $?\"; ls -A '" + work + "' | wc -l");
    }

    @Test
    void aTrainingMakesEveryCacheAndAFailedOneIsNoError(@TempDir Path tmp) throws Exception {
        String[] ok = train(tmp, 0);
        assertEquals("status 0\n0", ok[1]);   // and its temporary folder removed
        for (String c : List.of("c0.aot", "c0-small.aot", "c0-small-predict.aot", "c0-version.aot")) {
            assertTrue(Files.isRegularFile(tmp.resolve(c)), c);
        }
        // a failed JVM, or one that crashed (abort, the OOM killer): no cache, and the run goes on without one
        for (int status : new int[] {1, 134, 137}) {
            String[] failed = train(tmp, status);
            assertEquals("status 0\n0", failed[1], "status " + status);
            assertFalse(Files.exists(tmp.resolve("c" + status + ".aot")));
        }
    }

    /**
     * A TMPDIR that is missing (or read-only) is no reason to go without the caches: the training works beside them,
     * says nothing about TMPDIR, and leaves no folder there.
     */
    @Test
    void aTmpdirThatCannotBeUsedTrainsBesideTheCaches(@TempDir Path tmp) throws Exception {
        Path java = fakeJava(tmp);
        Path caches = Files.createDirectories(tmp.resolve("target"));
        String[] r = bash("export TMPDIR='" + tmp.resolve("missing") + "'; . '" + BIN.resolve("sylva-java.sh") + "'; "
                + "sylva_train_aot '" + java + "' '" + tmp.resolve("x.jar") + "' '" + caches.resolve("c.aot")
                + "'; echo \"status $?\"; ls -A '" + caches + "'");
        assertEquals("status 0\nc-small-predict.aot\nc-small.aot\nc-version.aot\nc.aot",
                r[1].lines().filter(l -> !l.isEmpty()).sorted((a, b) -> a.startsWith("status") ? -1
                        : b.startsWith("status") ? 1 : a.compareTo(b)).reduce((a, b) -> a + "\n" + b).orElse(""),
                "the caches made, the working folder beside them removed, no word of mktemp: " + r[1]);
    }

    @Test
    void anInterruptedTrainingStopsWithTheJvmsStatusAndLeavesNothing(@TempDir Path tmp) throws Exception {
        for (int status : new int[] {129, 130, 143}) {
            String[] r = train(tmp, status);
            assertEquals("status " + status + "\n0", r[1]);
            try (var files = Files.list(tmp)) {
                assertTrue(files.noneMatch(f -> f.getFileName().toString().startsWith("c" + status)), "no cache made");
            }
        }
        // the launcher stops there, saying so, and does not mark the build's cache as failed
        String launcher = Files.readString(BIN.resolveSibling("sylva"));
        int stop = launcher.indexOf("if sylva_interrupted \"$trained\"; then");
        assertTrue(stop > 0 && launcher.indexOf("exit \"$trained\"", stop) < launcher.indexOf("touch \"$aot.failed\""),
                launcher);
    }

    @Test
    void theMainCacheIsMadeLastSoAStoppedTrainingLeavesItToBeMadeAgainWithTheRest(@TempDir Path tmp) throws Exception {
        // a stand-in java that is "interrupted" (130) on the main cache's training only: the siblings are made, the
        // main one is not, and the launcher's gate (the main cache newer than the jar) sends the next run to train all
        Path java = tmp.resolve("java");
        Files.writeString(java, """
                #!/usr/bin/env bash
                for a in "$@"; do case "$a" in -XX:AOTCacheOutput=*) out="${a#*=}" ;; esac; done
                case "$out" in */sylva.aot) exit 130 ;; esac
                [ -z "${out:-}" ] || : > "$out"
                exit 0
                """);
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        String[] r = bash("export TMPDIR='" + tmp + "'; . '" + BIN.resolve("sylva-java.sh") + "'; sylva_train_aot '" + java
                + "' '" + tmp.resolve("x.jar") + "' '" + tmp.resolve("c.aot") + "'; echo \"status $?\"");
        assertEquals("status 130", r[1]);
        assertFalse(Files.exists(tmp.resolve("c.aot")));
        for (String c : List.of("c-small.aot", "c-small-predict.aot", "c-version.aot")) {
            assertTrue(Files.isRegularFile(tmp.resolve(c)), c);
        }
    }

    @Test
    void aSignalToTheLauncherKillsATrainingThatWouldCarryOnAndWhatItStarted(@TempDir Path tmp) throws Exception {
        // a stand-in java as a JVM writing its cache on its way out: it ignores the signals (the JVM's exit is under
        // way), has a process of its own (the JVM assembling the cache) and would end with 0 a minute later
        Path java = tmp.resolve("java");
        Path child = tmp.resolve("child.pid");
        Files.writeString(java, """
                #!/usr/bin/env bash
                trap '' INT TERM HUP
                sleep 60 &
                echo $! > "$FAKE_CHILD"
                wait
                exit 0
                """);
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        int tested = 0;
        for (String signal : List.of("TERM", "HUP")) {
            // a shell started with the signal ignored (under nohup, say) can neither trap nor receive it: not tested
            if (!bash("trap -p " + signal)[1].isEmpty()) continue;
            tested++;
            Files.deleteIfExists(child);
            Path work = Files.createDirectories(tmp.resolve("tmp-" + signal));
            // the signal goes to the launcher's shell alone (kill PID), once the stand-in has started its child
            String[] r = bash("export TMPDIR='" + work + "' FAKE_CHILD='" + child + "'; . '" + BIN.resolve("sylva-java.sh")
                    + "'; (for i in $(seq 400); do [ -s '" + child + "' ] && break; sleep 0.05; done; kill -" + signal
                    + " $$) & start=$SECONDS; sylva_train_aot '" + java + "' '" + tmp.resolve("x.jar") + "' '"
                    + tmp.resolve("c.aot") + "'; echo \"status $? after $((SECONDS - start)) s\"; ls -A '" + work
                    + "' | wc -l; for i in $(seq 40); do state=$(cut -d ' ' -f 3 \"/proc/$(cat '" + child
                    + "')/stat\" 2>/dev/null); case \"$state\" in ''|Z) break ;; esac; sleep 0.05; done; "
                    // killed: gone, or a zombie until whoever inherited it reaps it (a SIGKILL takes effect when the
                    // process next runs: on a loaded machine its state may still read S for a moment, hence the wait)
                    + "case \"$state\" in ''|Z) echo child gone ;; *) echo child alive ;; esac");
            String[] lines = r[1].split("\n");
            int expected = signal.equals("TERM") ? 143 : 129;
            assertTrue(lines[0].startsWith("status " + expected + " after "), r[1]);
            // at once, not when the stand-in ends (60 s): a bound far above any start-up, far below its minute
            assertTrue(Integer.parseInt(lines[0].replaceAll(".* after (\\d+) s", "$1")) < 30, r[1]);
            assertEquals("0", lines[1], "its temporary folder removed: " + r[1]);
            assertEquals("child gone", lines[2], r[1]);
            assertFalse(Files.exists(tmp.resolve("c.aot")));
        }
        org.junit.jupiter.api.Assumptions.assumeTrue(tested > 0, "SIGTERM and SIGHUP are ignored in this process");
        // the caller's own traps of those signals are back after a training
        String[] traps = bash(". '" + BIN.resolve("sylva-java.sh") + "'; trap 'echo mine' TERM; sylva_train_run true; "
                + "trap -p TERM");
        assertEquals("trap -- 'echo mine' SIGTERM", traps[1]);
    }

    @Test
    void mavenIsNeededOnlyWhereTheLauncherBuilds() throws Exception {
        // no mvn on PATH (the JDK is found under /usr/lib/jvm or JAVA_HOME, by bash alone)
        String find = "'" + BIN.resolve("find-jdk.sh") + "'";
        String[] building = bash("PATH=/nonexistent; . " + find + " && echo found");
        assertEquals("2", building[0], building[1]);
        assertEquals("sylva: Apache Maven (mvn) is needed to build; install it (Debian: apt-get install maven).", building[1]);
        String[] running = bash("PATH=/nonexistent; SYLVA_MVN_WHEN_BUILDING=1; . " + find + " && echo found");
        assertEquals("0", running[0], running[1]);
        assertEquals("found", running[1]);
        String[] later = bash("PATH=/nonexistent; SYLVA_MVN_WHEN_BUILDING=1; . " + find + " && sylva_need_mvn; echo not here");
        assertEquals("2", later[0], later[1]);
    }
}
