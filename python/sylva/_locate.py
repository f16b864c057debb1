"""Where the engine is: the command line that starts ``sylva serve``.

Looked for in this order, the first found wins:

1. ``$SYLVA_HOME/bin/sylva``: an unpacked distribution (it brings its own Java runtime);
2. the ``./sylva`` of a checkout of the repository: the one this package lies in (an editable or
   in-tree use), else the current directory or one of its parents;
3. a ``java`` of version 25 or newer (``$JAVA_HOME/bin/java``, else on ``PATH``) with a jar:
   ``$SYLVA_JAR``, else a ``sylva.jar`` shipped inside this package.

``SYLVA_JAVA_OPTS`` (e.g. ``-Xmx16g``) reaches the engine's JVM in every case.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import List, Mapping, Optional

from ._errors import EngineNotFoundError

#: Parents of the current directory looked at for a checkout (a bound on the walk up).
MAX_PARENTS = 64

#: The launchers' JIT options for the vector kernels (``SYLVA_VECTOR_JIT`` in ``bin/sylva-java.sh``; a test
#: keeps the two equal), for the engine started from a jar: C2 compiles the kernels after fewer calls, and a
#: thread waits for a kernel's compiled code instead of running it as interpreted Vector API code. "quiet"
#: first, so that the JVM writes nothing on the engine's stdout.
VECTOR_JIT = [
    "-XX:CompileCommand=quiet",
    "-XX:CompileCommand=CompileThresholdScaling,org/sylva/kernels/Vector*.*,0.05",
    "-XX:CompileCommand=BackgroundCompilation,org/sylva/kernels/Vector*.*,false",
]


#: The JVM's log warnings (a thread that cannot start) on stderr, as the launchers send them: by default they go
#: to stdout, the engine's channel.
VM_LOG = ["-Xlog:disable", "-Xlog:all=warning,aot*=off,cds*=off:stderr"]


#: The kernel's transparent huge pages setting. Where it reads "[madvise]" the engine's JVM asks for them, as
#: the launchers do (``SYLVA_THP_SETTING`` in ``bin/sylva-java.sh``): 2 MiB pages take the first-touch faults of a
#: large array 512 times less often. Elsewhere the JVM would print a warning on stdout, the engine's channel.
THP_SETTING = Path("/sys/kernel/mm/transparent_hugepage/enabled")


def huge_pages_options(setting: Path = THP_SETTING) -> List[str]:
    """``["-XX:+UseTransparentHugePages"]`` where ``setting`` reads ``[madvise]``, else nothing."""
    try:
        text = setting.read_text()
    except (OSError, UnicodeDecodeError):
        return []
    return ["-XX:+UseTransparentHugePages"] if "[madvise]" in text else []


def _checkout_launcher(root: Path) -> Optional[Path]:
    launcher = root / "sylva"
    if launcher.is_file() and os.access(launcher, os.X_OK) and (root / "sylva-cli" / "pom.xml").is_file():
        return launcher
    return None


def _java_major(java: str) -> int:
    """The major version of ``java`` (0 when it cannot be told); starts it once (~50 ms)."""
    try:
        out = subprocess.run([java, "-XshowSettings:properties", "-version"], capture_output=True, text=True,
                             timeout=30).stderr
    except (OSError, subprocess.SubprocessError):
        return 0
    m = re.search(r"java\.specification\.version = (\d+)", out)
    return int(m.group(1)) if m else 0


def engine_command(env: Optional[Mapping[str, str]] = None, cwd: Optional[Path] = None,
                   package_dir: Optional[Path] = None) -> List[str]:
    """The command that runs the ``sylva`` CLI (append ``serve`` to start the engine).

    ``env``, ``cwd`` and ``package_dir`` (where this package lies) default to this process's; tests
    replace them. Raises :class:`EngineNotFoundError` naming what was looked at when nothing is found.
    """
    env = os.environ if env is None else env
    cwd = Path.cwd() if cwd is None else cwd
    package_dir = Path(__file__).resolve().parent if package_dir is None else package_dir
    home = env.get("SYLVA_HOME")
    if home:
        launcher = Path(home) / "bin" / "sylva"
        if not (launcher.is_file() and os.access(launcher, os.X_OK)):
            raise EngineNotFoundError(f"SYLVA_HOME={home} has no executable bin/sylva; point it at an unpacked "
                                      "distribution (sylva-VERSION/), or unset it")
        return [str(launcher)]
    roots = [package_dir.parent.parent]   # <checkout>/python/sylva
    here = cwd.resolve()
    roots += [here] + list(here.parents)[:MAX_PARENTS]
    for root in roots:
        launcher = _checkout_launcher(root)
        if launcher is not None:
            return [str(launcher)]
    jar = env.get("SYLVA_JAR") or str(package_dir / "sylva.jar")
    java_home = env.get("JAVA_HOME")
    # $JAVA_HOME's java, else the one on PATH: an older JAVA_HOME (17) does not hide a java 25 on PATH, as in
    # bin/find-jdk.sh
    candidates = []
    if java_home and (Path(java_home) / "bin" / "java").is_file():
        candidates.append(str(Path(java_home) / "bin" / "java"))
    on_path = shutil.which("java", path=env.get("PATH"))
    if on_path and on_path not in candidates:
        candidates.append(on_path)
    if Path(jar).is_file():
        older = []
        for java in candidates:
            if _java_major(java) >= 25:
                # the launchers' JVM options, and the user's (SYLVA_JAVA_OPTS, e.g. -Xmx16g), as the launchers add
                return [java, "--add-modules", "jdk.incubator.vector", "-Xss8m", "-XX:+DisplayVMOutputToStderr"] \
                    + VECTOR_JIT + VM_LOG + huge_pages_options() \
                    + env.get("SYLVA_JAVA_OPTS", "").split() + ["-jar", jar]
            older.append(java)
        raise EngineNotFoundError(f"found the jar {jar} but no java 25 or newer (looked at $JAVA_HOME and PATH"
                                  + (f": {' and '.join(older)} {'is' if len(older) == 1 else 'are'} older"
                                     if older else "") + ")")
    raise EngineNotFoundError(
        "no Sylva engine found: set SYLVA_HOME to an unpacked distribution (sylva-VERSION/, made by "
        "`mvn -Pdist package`), run from a checkout of the repository (its ./sylva), or put java 25 on PATH "
        "and set SYLVA_JAR to sylva.jar")
