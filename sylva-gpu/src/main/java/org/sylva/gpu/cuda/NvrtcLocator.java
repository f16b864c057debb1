package org.sylva.gpu.cuda;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Finds NVRTC's library: the path the system property {@code sylva.nvrtc} names, else the first
 * {@code libnvrtc.so*} (newest version first) in the places the CUDA toolkit, the distributions and
 * the {@code nvidia-cuda-nvrtc} Python wheels put it: {@code $CUDA_HOME/lib64}, {@code /usr/local/cuda*}
 * (also its {@code targets/x86_64-linux/lib}) and {@code /usr/lib/x86_64-linux-gnu}, then
 * {@code nvidia/cu13/lib}, {@code nvidia/cu12/lib} (CUDA 13's wheels group their libraries there) and
 * {@code nvidia/cuda_nvrtc/lib} (CUDA 12's wheel) under every {@code site-packages} or
 * {@code dist-packages} directory of {@code /usr}, {@code /usr/local}, the user's home, an active
 * virtual or conda environment, the environment of each {@code python3} on {@code PATH} and
 * {@code PYTHONPATH}. The search looks only at those directories (no recursive walk), so it is quick
 * and bounded.
 *
 * <pre>{@code
 * Optional<Path> lib = NvrtcLocator.find();
 * NvrtcLocator.searched().forEach(System.out::println);   // where it looked, for the refusal message
 * }</pre>
 */
public final class NvrtcLocator {
    private NvrtcLocator() {
    }

    /** The library: the property's path if set (even when missing: it is then reported), else the search. */
    public static Optional<Path> find() {
        String named = System.getProperty("sylva.nvrtc");
        if (named != null && !named.isBlank()) return Optional.of(Path.of(named));
        return search(candidates(System.getenv(), Path.of(System.getProperty("user.home", "/root"))));
    }

    /** Where {@link #find()} looks, in order (for messages). */
    public static List<Path> searched() {
        return candidates(System.getenv(), Path.of(System.getProperty("user.home", "/root")));
    }

    /** The first directory of {@code dirs} holding a {@code libnvrtc.so*}, its newest such file. */
    static Optional<Path> search(List<Path> dirs) {
        for (Path dir : dirs) {
            List<Path> libs = new ArrayList<>();
            try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, "libnvrtc.so*")) {
                for (Path p : ds) {
                    if (Files.isRegularFile(p) || Files.isSymbolicLink(p)) libs.add(p);
                }
            } catch (IOException | SecurityException e) {
                continue;   // a missing or unreadable directory is simply not a place NVRTC lives
            }
            // libnvrtc.so.12 before libnvrtc.so: the versioned name is what the wheel ships; never the builtins
            libs.removeIf(p -> p.getFileName().toString().contains("builtins"));
            libs.sort(Comparator.comparing((Path p) -> p.getFileName().toString().length()).reversed()
                    .thenComparing(Comparator.reverseOrder()));
            if (!libs.isEmpty()) return Optional.of(libs.get(0));
        }
        return Optional.empty();
    }

    /** The directories searched, for the environment {@code env} and home directory {@code home}. */
    static List<Path> candidates(Map<String, String> env, Path home) {
        Set<Path> dirs = new LinkedHashSet<>();
        for (String var : List.of("CUDA_HOME", "CUDA_PATH")) {
            String v = env.get(var);
            if (v != null && !v.isBlank()) dirs.add(Path.of(v, "lib64"));
        }
        dirs.add(Path.of("/usr/local/cuda/lib64"));
        dirs.addAll(children(Path.of("/usr/local"), "cuda-*", "lib64"));
        dirs.add(Path.of("/usr/local/cuda/targets/x86_64-linux/lib"));
        dirs.add(Path.of("/usr/lib/x86_64-linux-gnu"));
        dirs.add(Path.of("/usr/lib64"));
        List<Path> sitePackages = new ArrayList<>();
        for (String var : List.of("VIRTUAL_ENV", "CONDA_PREFIX")) {
            String v = env.get(var);
            if (v != null && !v.isBlank()) sitePackages.addAll(pythonLibs(Path.of(v, "lib")));
        }
        // a python3 on PATH (e.g. an image's /opt/torch/.venv/bin/python3) belongs to an environment whose
        // wheels are installed under its lib/python3*/site-packages, active or not
        String path = env.get("PATH");
        if (path != null) {
            for (String p : path.split(":")) {
                if (p.isBlank()) continue;
                Path bin = Path.of(p);
                if (Files.exists(bin.resolve("python3")) && bin.getParent() != null) {
                    sitePackages.addAll(pythonLibs(bin.getParent().resolve("lib")));
                }
            }
        }
        String pythonPath = env.get("PYTHONPATH");
        if (pythonPath != null) {
            for (String p : pythonPath.split(":")) if (!p.isBlank()) sitePackages.add(Path.of(p));
        }
        sitePackages.addAll(pythonLibs(home.resolve(".local/lib")));
        sitePackages.addAll(pythonLibs(Path.of("/usr/local/lib")));
        sitePackages.addAll(pythonLibs(Path.of("/usr/lib")));
        sitePackages.addAll(pythonLibs(Path.of("/opt/conda/lib")));
        for (Path sp : sitePackages) {
            for (String wheelDir : List.of("nvidia/cu13/lib", "nvidia/cu12/lib", "nvidia/cuda_nvrtc/lib")) {
                dirs.add(sp.resolve(wheelDir));
            }
        }
        return List.copyOf(dirs);
    }

    /** {@code base/python3*}/{site,dist}-packages, in reverse name order. */
    private static List<Path> pythonLibs(Path base) {
        List<Path> out = new ArrayList<>();
        for (Path py : children(base, "python3*", "")) {
            out.add(py.resolve("site-packages"));
            out.add(py.resolve("dist-packages"));
        }
        return out;
    }

    /** {@code parent/GLOB/tail} for each match, names in reverse order (a later toolkit usually first). */
    private static List<Path> children(Path parent, String glob, String tail) {
        List<Path> out = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(parent, glob)) {
            for (Path p : ds) if (Files.isDirectory(p)) out.add(tail.isEmpty() ? p : p.resolve(tail));
        } catch (IOException | SecurityException e) {
            return out;   // no such directory: nothing there
        }
        out.sort(Comparator.reverseOrder());
        return out;
    }
}
