"""The engine process: one per Python process, restarted after a crash, cancelled by Ctrl-C, bounded
requests, and the order in which it is looked for."""
import os
import select
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

import sylva
from sylva import _locate

SLOW_N = 40_000


@pytest.fixture(scope="module")
def slow_points():
    """Uniform points in 61-D: many seconds of exact HDBSCAN (no cluster structure to exploit)."""
    return np.random.default_rng(5).random((SLOW_N, 61), dtype=np.float32)


def small():
    return np.random.default_rng(1).normal(size=(200, 3))


def test_one_engine_serves_every_call():
    e = sylva.engine()
    sylva.HDBSCAN().fit(small())
    pid = e.pid
    sylva.build_balltree(small().astype(np.float32), None)
    sylva.HDBSCAN().fit(small())
    assert e.pid == pid and pid is not None
    h = e.hello
    assert h["protocol"] == 3 and set(h["commands"]) == {"hdbscan", "predict", "cut", "validity", "balltree", "partition"}


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="pipe sizes are a Linux feature")
def test_the_pipes_to_and_from_the_engine_are_widened_and_large_arrays_cross_them_intact():
    import fcntl

    from sylva import _engine
    e = sylva.engine()
    sylva.HDBSCAN().fit(small())
    limit = int(Path("/proc/sys/fs/pipe-max-size").read_text())
    for stream in (e._proc.stdin, e._proc.stdout):
        size = fcntl.fcntl(stream.fileno(), fcntl.F_GETPIPE_SZ)
        assert size == _engine.PIPE_BYTES or limit < _engine.PIPE_BYTES, size
    # several MiB each way, more than one pipe's worth: the frames still arrive whole and in step
    x = np.random.default_rng(3).normal(size=(60_000, 12))
    c = sylva.HDBSCAN(min_cluster_size=50).fit(x)
    assert c.labels_.shape == (60_000,) and c.minimum_spanning_tree_.shape == (59_999, 3)
    assert np.all(np.diff(c.minimum_spanning_tree_[:, 2]) >= 0)


def test_an_engine_killed_between_calls_is_restarted():
    e = sylva.engine()
    sylva.HDBSCAN().fit(small())
    old = e.pid
    os.kill(old, signal.SIGKILL)
    time.sleep(0.2)
    labels = sylva.HDBSCAN().fit_predict(small())
    assert e.pid not in (None, old) and labels.shape == (200,)


def test_a_ctrl_c_between_sending_and_waiting_leaves_the_engine_in_step(monkeypatch, slow_points):
    # as if SIGINT arrived after the request went out but before the wait for its answer began
    from sylva._engine import Engine
    e = sylva.engine()
    want = sylva.HDBSCAN().fit_predict(small())
    pid = e.pid
    real = Engine._await_response

    def interrupted(self, proc, progress=None):
        monkeypatch.setattr(Engine, "_await_response", real)
        raise KeyboardInterrupt

    monkeypatch.setattr(Engine, "_await_response", interrupted)
    with pytest.raises(KeyboardInterrupt):
        sylva.HDBSCAN(min_cluster_size=20).fit(slow_points)   # left running: the next call cancels it
    start = time.monotonic()
    assert np.array_equal(sylva.HDBSCAN().fit_predict(small()), want)
    assert e.pid == pid and time.monotonic() - start < 5


@pytest.mark.skipif(not hasattr(signal, "SIGQUIT"), reason="SIGQUIT is a POSIX signal")
def test_the_jvms_own_output_stays_off_the_frames():
    # SIGQUIT makes the JVM print a thread dump: on stderr, or it would land among the answers on stdout
    e = sylva.engine()
    sylva.HDBSCAN().fit(small())
    pid = e.pid
    os.kill(pid, signal.SIGQUIT)
    time.sleep(0.5)
    assert sylva.HDBSCAN().fit_predict(small()).shape == (200,)
    assert e.pid == pid


def test_an_engine_dying_during_a_call_is_an_engine_error_and_the_next_call_restarts_it(slow_points):
    e = sylva.engine()
    sylva.HDBSCAN().fit(small())
    old = e.pid
    threading.Timer(0.5, os.kill, (old, signal.SIGKILL)).start()
    with pytest.raises(sylva.EngineError, match="stopped answering"):
        sylva.HDBSCAN(min_cluster_size=20).fit(slow_points)
    assert sylva.HDBSCAN().fit_predict(small()).shape == (200,)
    assert e.pid != old


def test_a_call_with_progress_passes_each_frame_to_it_and_answers_as_without():
    seen = []
    points = np.random.default_rng(2).normal(size=(3000, 8))
    with_progress = sylva.engine().call("hdbscan", {"min_cluster_size": 10}, {"points": points},
                                        progress=lambda *frame: seen.append(frame))
    plain = sylva.engine().call("hdbscan", {"min_cluster_size": 10}, {"points": points})
    assert with_progress.kind == "ok"
    np.testing.assert_array_equal(with_progress.arrays["labels"], plain.arrays["labels"])
    stages = [stage for stage, _, _ in seen]
    assert "core distances" in stages, seen
    assert all(0 <= done <= total for _, done, total in seen), seen
    # each stage's frames come together and end with its last report
    last = {}
    for stage, done, total in seen:
        last[stage] = (done, total)
    assert last["core distances"][0] == last["core distances"][1], seen


def test_progress_frames_buffered_with_their_answer_do_not_stall_the_call():
    # a tiny fit's progress frames and answer arrive together: reading the first frame buffers the rest in Python,
    # and the pipe then stays quiet
    rng = np.random.default_rng(3)
    kinds = []

    def calls():
        for _ in range(50):
            kinds.append(sylva.engine().call("hdbscan", {"min_cluster_size": 5, "non_finite": "sklearn"},
                                             {"points": rng.normal(size=(30, 2))}, progress=lambda *frame: None).kind)

    t = threading.Thread(target=calls, daemon=True)
    t.start()
    t.join(60)
    assert not t.is_alive(), f"a call stalled after {len(kinds)} calls"
    assert kinds == ["ok"] * 50


def test_a_failing_progress_callback_cancels_its_request_and_the_engine_serves_the_next():
    e = sylva.engine()
    points = np.random.default_rng(2).normal(size=(3000, 8))

    def fail(*frame):
        raise RuntimeError("callback failed")

    with pytest.raises(RuntimeError, match="callback failed"):
        e.call("hdbscan", {"min_cluster_size": 10}, {"points": points}, progress=fail)
    pid = e.pid
    assert e.call("hdbscan", {"min_cluster_size": 10}, {"points": points}).kind == "ok"

    def calls_back(*frame):
        e.call("hdbscan", {"min_cluster_size": 10}, {"points": points})

    with pytest.raises(sylva.EngineError, match="a progress callback cannot call the engine"):
        e.call("hdbscan", {"min_cluster_size": 10}, {"points": points}, progress=calls_back)
    assert e.call("hdbscan", {"min_cluster_size": 10}, {"points": points}).kind == "ok"
    assert e.pid == pid, "the engine stayed in step and up"


@pytest.mark.parametrize("verbose", [False, True], ids=["quiet", "verbose"])
def test_ctrl_c_cancels_the_engines_work_and_keeps_the_engine(slow_points, verbose):
    e = sylva.engine()
    sylva.HDBSCAN().fit(small())
    pid = e.pid
    # Python's own Ctrl-C handler, whatever this process inherited: a shell starts a background job (`cmd &`,
    # nohup) with SIGINT ignored, and Python then leaves it ignored, so the signal below would do nothing
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        timer = threading.Timer(0.7, os.kill, (os.getpid(), signal.SIGINT))
        t0 = time.monotonic()
        timer.start()
        with pytest.raises(KeyboardInterrupt):   # verbose: with progress frames in flight
            sylva.HDBSCAN(min_cluster_size=20, verbose=verbose).fit(slow_points)
        elapsed = time.monotonic() - t0
        timer.join()
    finally:
        signal.signal(signal.SIGINT, previous)
    # the fit takes many seconds; cancelled, it stops within a chunk of work (<= 0.5 s) plus slack
    assert elapsed < 4.0, elapsed
    assert e.pid == pid, "the engine stays up"
    assert sylva.HDBSCAN().fit_predict(small()).shape == (200,)


def test_a_request_over_the_engines_bound_is_refused_and_the_engine_goes_on():
    e = sylva.Engine(serve_args=["--max-request-mib", "1"], echo_stderr=False)
    try:
        big = np.zeros((300_000, 1), dtype=np.float32)   # 1.14 MiB
        with pytest.raises(ValueError, match=r"has 1200000 bytes \(1.1 MiB\); the engine takes at most 1048576 bytes"):
            e.call("balltree", {}, {"points": big})
        e._check_limits = lambda kind, arrays: None       # let it through: the engine refuses it itself
        pid = e.pid
        with pytest.raises(ValueError, match="1048576 bytes"):
            e.call("balltree", {}, {"points": big})
        r = e.call("balltree", {}, {"points": big[:1000]})
        assert r.arrays["tree_idx"].shape == (1024,) and e.pid == pid
    finally:
        e.close()
    assert e.pid is None


def test_an_unknown_parameter_is_a_value_error_naming_it():
    with pytest.raises(ValueError, match="unknown parameter 'levle'"):
        sylva.engine().call("partition", {"levle": 3}, {"points": np.zeros((4, 1), np.float32)})


# -- where the engine is looked for ---------------------------------------------------------------

def _fake_checkout(root: Path):
    (root / "sylva-cli").mkdir(parents=True)
    (root / "sylva-cli" / "pom.xml").write_text("<project/>")
    (root / "sylva").write_text("#!/bin/sh\n")
    (root / "sylva").chmod(0o755)
    return root


def _fake_home(home: Path):
    (home / "bin").mkdir(parents=True)
    (home / "bin" / "sylva").write_text("#!/bin/sh\n")
    (home / "bin" / "sylva").chmod(0o755)
    return home


def test_sylva_home_comes_first_then_a_checkout_then_java_with_a_jar(tmp_path):
    checkout = _fake_checkout(tmp_path / "repo")
    home = _fake_home(tmp_path / "dist")
    nowhere = tmp_path / "elsewhere" / "site-packages" / "sylva"
    nowhere.mkdir(parents=True)
    inside = checkout / "sub" / "dir"
    inside.mkdir(parents=True)
    env = {"PATH": "/nonexistent"}
    assert _locate.engine_command({**env, "SYLVA_HOME": str(home)}, inside, nowhere) == [str(home / "bin" / "sylva")]
    assert _locate.engine_command(env, inside, nowhere) == [str(checkout / "sylva")], "found from the directory"
    assert _locate.engine_command(env, tmp_path, checkout / "python" / "sylva") == [str(checkout / "sylva")], \
        "found from the package's own place"
    with pytest.raises(sylva.EngineNotFoundError, match="SYLVA_HOME"):
        _locate.engine_command(env, tmp_path, nowhere)
    with pytest.raises(sylva.EngineNotFoundError, match="no executable bin/sylva"):
        _locate.engine_command({**env, "SYLVA_HOME": str(tmp_path)}, inside, nowhere)
    jar = tmp_path / "sylva.jar"
    jar.write_bytes(b"")
    with pytest.raises(sylva.EngineNotFoundError, match="no java 25"):
        _locate.engine_command({**env, "SYLVA_JAR": str(jar)}, tmp_path, nowhere)


def _java25():
    for java in [shutil.which("java")] + sorted(str(p) for p in Path("/usr/lib/jvm").glob("*/bin/java")):
        if java and _locate._java_major(java) >= 25:
            return java
    return None


def _real_jar():
    here = sylva.engine_command()[0]
    for jar in (Path(here).parent / "sylva-cli" / "target" / "sylva.jar", Path(here).parent.parent / "lib" / "sylva.jar"):
        if jar.is_file():
            return jar
    return None


def test_java_25_on_path_with_a_jar_runs_the_engine(tmp_path):
    java, jar = _java25(), _real_jar()
    if java is None or jar is None:
        pytest.skip("no java 25 on this machine, or no jar beside the engine found")
    nowhere = tmp_path / "site-packages" / "sylva"
    nowhere.mkdir(parents=True)
    env = {"PATH": str(Path(java).parent), "SYLVA_JAR": str(jar), "SYLVA_JAVA_OPTS": "-Xmx256m"}
    command = _locate.engine_command(env, tmp_path, nowhere)
    assert command[0] == java and command[-1] == str(jar) and "-Xmx256m" in command
    assert "-XX:+DisplayVMOutputToStderr" in command, "the JVM's own output on stderr, as the launchers put it"
    assert command[command.index(_locate.VM_LOG[0]):][:2] == _locate.VM_LOG, "its log's warnings too"
    assert command[5:5 + len(_locate.VECTOR_JIT)] == _locate.VECTOR_JIT, "the launchers' JIT options, in order"
    e = sylva.Engine(command=command, echo_stderr=False)
    try:
        r = e.call("partition", {"level": 1}, {"points": np.arange(8, dtype=np.float32).reshape(8, 1)})
        assert sorted(r.arrays["perm"].tolist()) == list(range(8))
        assert e.hello["heap_bytes"] <= 256 << 20
    finally:
        e.close()


def test_an_older_java_home_does_not_hide_java_25_on_path(tmp_path):
    java = _java25()
    if java is None:
        pytest.skip("no java 25 on this machine")
    old_home = tmp_path / "jdk-17"
    (old_home / "bin").mkdir(parents=True)
    old_java = old_home / "bin" / "java"
    old_java.write_text('#!/bin/sh\necho "    java.specification.version = 17" >&2\n')
    old_java.chmod(0o755)
    jar = tmp_path / "sylva.jar"
    jar.write_bytes(b"")
    nowhere = tmp_path / "site-packages" / "sylva"
    nowhere.mkdir(parents=True)
    env = {"PATH": str(Path(java).parent), "SYLVA_JAR": str(jar), "JAVA_HOME": str(old_home)}
    assert _locate.engine_command(env, tmp_path, nowhere)[0] == java
    with pytest.raises(sylva.EngineNotFoundError, match="jdk-17/bin/java is older"):
        _locate.engine_command({**env, "PATH": str(old_home / "bin")}, tmp_path, nowhere)


def test_the_jar_path_has_the_launchers_vector_jit_options():
    script = Path(__file__).resolve().parents[2] / "bin" / "sylva-java.sh"
    if not script.is_file():
        pytest.skip("not in a checkout of the repository")
    printed = subprocess.run(["bash", "-c", '. "$0"; printf "%s\\n" "${SYLVA_VECTOR_JIT[@]}"', str(script)],
                             capture_output=True, text=True, check=True).stdout.splitlines()
    assert printed == _locate.VECTOR_JIT
    launcher = subprocess.run(["bash", "-c", '. "$0"; sylva_java_args /x/sylva.jar /nonexistent', str(script)],
                              capture_output=True, text=True, check=True).stdout.splitlines()
    assert launcher[launcher.index(_locate.VM_LOG[0]):][:2] == _locate.VM_LOG, "the launchers' log options"


def test_huge_pages_are_asked_for_where_the_kernel_gives_them_on_request(tmp_path):
    setting = tmp_path / "enabled"
    for text, asked in (("always [madvise] never", True), ("always madvise [never]", False),
                        ("[always] madvise never", False)):
        setting.write_text(text + "\n")
        assert _locate.huge_pages_options(setting) == (["-XX:+UseTransparentHugePages"] if asked else []), text
    assert _locate.huge_pages_options(tmp_path / "missing") == []
    script = Path(__file__).resolve().parents[2] / "bin" / "sylva-java.sh"
    if script.is_file():   # the launchers' rule is the same
        for text in ("always [madvise] never", "always madvise [never]"):
            setting.write_text(text + "\n")
            printed = subprocess.run(["bash", "-c", '. "$0"; SYLVA_THP_SETTING="$1"; sylva_java_args x y', str(script),
                                      str(setting)], capture_output=True, text=True, check=True).stdout.splitlines()
            assert ("-XX:+UseTransparentHugePages" in printed) == bool(_locate.huge_pages_options(setting)), text


def test_a_forked_child_starts_its_own_engine_and_leaves_the_parents_alone():
    import multiprocessing
    e = sylva.engine()
    sylva.HDBSCAN().fit(small())
    parent_engine = e.pid
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(1) as pool:
        child_pid, child_engine, n = pool.apply(_fit_in_child)
    assert child_pid != os.getpid() and child_engine not in (None, parent_engine) and n == 200
    assert e.pid == parent_engine
    assert sylva.HDBSCAN().fit_predict(small()).shape == (200,)


def test_a_fork_while_another_thread_holds_the_engine_leaves_the_child_free_and_the_parents_close_quick():
    e = sylva.engine()
    sylva.HDBSCAN().fit(small())
    held, release = threading.Event(), threading.Event()

    def hold():   # another thread in the middle of a call, as a long fit is: its request unanswered
        with e._lock:
            e._unanswered = e._next_id
            held.set()
            release.wait(30)
            e._unanswered = None

    t = threading.Thread(target=hold)
    t.start()
    held.wait(10)
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:   # the child: its first call must not wait for the parent's thread
        os.close(r)
        try:
            # nor cancel the parent's request on its own engine, which would never answer
            sylva._engine.Engine._cancel = lambda self, proc: os._exit(3)
            n = len(sylva.HDBSCAN().fit_predict(small()))
            os.write(w, str(n).encode())
        finally:
            os._exit(0)
    os.close(w)
    try:
        ready, _, _ = select.select([r], [], [], 60)
        assert ready, "the forked child's first fit did not return within 60 s"
        assert os.read(r, 16) == b"200"
    finally:
        release.set()
        t.join()
        os.close(r)
        os.kill(pid, signal.SIGKILL)   # done already, or stuck: either way it ends here
        os.waitpid(pid, 0)
    # the parent closes its engine at once although the child, still alive or not, inherited its pipes
    other = sylva._engine.Engine()
    assert other.hello   # started
    child = os.fork()
    if child == 0:
        time.sleep(20)
        os._exit(0)
    try:
        t0 = time.monotonic()
        other.close()
        assert time.monotonic() - t0 < 2.0
    finally:
        os.kill(child, signal.SIGKILL)
        os.waitpid(child, 0)
    assert sylva.HDBSCAN().fit_predict(small()).shape == (200,)


def test_what_the_jvm_prints_on_stdout_cannot_break_the_answers(monkeypatch):
    # unified logging's default output is stdout: -Xlog:gc and --show-version print there from the JVM's start; the
    # answers come on a pipe of their own, and those lines arrive with the engine's stderr
    monkeypatch.setenv("SYLVA_JAVA_OPTS", "-Xlog:gc --show-version")
    e = sylva._engine.Engine(echo_stderr=False)
    try:
        for level in (1, 2, 3):
            r = e.call("partition", {"level": level}, {"points": np.arange(64, dtype=np.float32).reshape(32, 2)})
            assert sorted(r.arrays["perm"].tolist()) == list(range(32))
        assert any("Using" in line and "gc" in line for line in e._stderr), list(e._stderr)
    finally:
        e.close()


def test_a_stderr_that_cannot_be_written_does_not_stop_the_engines_stderr_being_read(monkeypatch):
    # the engine's stderr is echoed to Python's; were an echo's failure to end the thread reading it, the engine
    # would block on a full pipe and every later call hang
    class Broken:
        def write(self, text):
            raise OSError("closed")

        def flush(self):
            raise OSError("closed")

    monkeypatch.setenv("SYLVA_JAVA_OPTS", "-Xlog:gc")
    monkeypatch.setattr(sys, "stderr", Broken())
    e = sylva._engine.Engine(echo_stderr=True)
    try:
        r = e.call("partition", {"level": 1}, {"points": np.arange(64, dtype=np.float32).reshape(32, 2)})
        assert sorted(r.arrays["perm"].tolist()) == list(range(32))
        for _ in range(50):   # the hello came after the JVM's first line: the thread has met it by now
            if any("Using" in line for line in e._stderr):
                break
            time.sleep(0.05)
        assert any("Using" in line for line in e._stderr), list(e._stderr)
        assert e._drainer.is_alive()
    finally:
        e.close()


def test_a_cancel_left_unanswered_starts_a_fresh_engine(monkeypatch):
    # a request marked unanswered whose engine runs nothing: the cancel gets no answer, the engine is killed, and
    # the call goes on with a fresh one (it failed with AttributeError on the dead engine's stdin)
    e = sylva.engine()
    sylva.HDBSCAN().fit(small())
    old = e.pid
    monkeypatch.setattr(sylva._engine, "CANCEL_WAIT_SECONDS", 0.5)
    e._unanswered = e._next_id
    assert sylva.HDBSCAN().fit_predict(small()).shape == (200,)
    assert e.pid not in (None, old)


def _fit_in_child():
    labels = sylva.HDBSCAN().fit_predict(small())
    return os.getpid(), sylva.engine().pid, len(labels)


def test_the_interpreters_exit_does_not_wait_for_a_fit_in_a_daemon_thread(tmp_path):
    # a fit of half a minute or more in a daemon thread; the main thread ends: the exit kills the engine instead of
    # waiting for the fit (which the old exit did: 30-60 s here)
    script = tmp_path / "exit.py"
    script.write_text(
        "import threading, time, numpy as np, sylva\n"
        "x = np.random.default_rng(5).random((150_000, 61), dtype=np.float32)\n"
        "e = sylva.engine()\n"
        "e.hello\n"
        "threading.Thread(target=lambda: sylva.HDBSCAN().fit(x), daemon=True).start()\n"
        "time.sleep(2)\n"
        "print(e.pid, time.monotonic(), flush=True)\n")
    # timed from the script's last line (CLOCK_MONOTONIC is the machine's, the same in both processes): the start
    # of Python, numpy and the engine before it took 18 s on a loaded 2-core machine, which is not the exit's time
    p = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=180,
                       env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)))
    ended = time.monotonic()
    assert p.returncode == 0, p.stderr
    engine_pid, last_line = p.stdout.split()[:2]
    engine_pid = int(engine_pid)
    took = ended - float(last_line)
    assert took < 10, f"the exit took {took:.1f} s"
    for _ in range(50):   # the engine is gone: killed (a zombie where no init reaps it) or reaped
        try:
            with open(f"/proc/{engine_pid}/stat") as f:
                if f.read().rsplit(")", 1)[1].split()[0] == "Z":
                    break
        except (FileNotFoundError, ProcessLookupError):
            break
        time.sleep(0.1)
    else:
        pytest.fail(f"the engine {engine_pid} still runs after the interpreter's exit")


def test_an_engine_that_never_says_hello_is_an_error_after_the_wait(tmp_path, monkeypatch):
    silent = tmp_path / "silent"
    silent.write_text("#!/bin/sh\nexec sleep 60\n")
    silent.chmod(0o755)
    monkeypatch.setattr(sylva._engine, "START_WAIT_SECONDS", 1.0)
    e = sylva._engine.Engine(command=[str(silent)])
    t0 = time.monotonic()
    with pytest.raises(sylva.EngineError, match="no hello within 1 s"):
        e.hello
    assert time.monotonic() - t0 < 10
    assert e.pid is None


def test_an_engine_that_exits_at_once_is_an_error_naming_its_exit_status(tmp_path):
    broken = tmp_path / "broken"
    broken.write_text("#!/bin/sh\necho 'no java here' >&2\nexit 7\n")
    broken.chmod(0o755)
    e = sylva._engine.Engine(command=[str(broken)], echo_stderr=False)
    with pytest.raises(sylva.EngineError, match=r"(?s)exit status 7\): .*no java here"):
        e.hello


def test_output_that_is_not_the_protocol_is_an_error_even_from_an_engine_that_stays_up():
    # an engine that writes a line of its own and then waits for input: the error quotes what came, without
    # waiting for 200 bytes that never come
    for said in (b"sylva 0.0.1 ready\n", b"ok\n"):   # also fewer bytes than the protocol's magic
        _a_read_of(said)


def _a_read_of(said):
    from sylva import _protocol
    r, w = os.pipe()
    try:
        os.write(w, said)
        outcome = {}

        def reading():
            with open(r, "rb", closefd=False) as stream:
                try:
                    _protocol.read(stream)
                except _protocol.ProtocolError as e:
                    outcome["error"] = str(e)

        t = threading.Thread(target=reading, daemon=True)
        t.start()
        t.join(30)
        assert not t.is_alive(), "the read waited for bytes that never come"
        assert outcome["error"] == "the engine's output is not the protocol; it starts with " + repr(said)
    finally:
        os.close(w)
        os.close(r)


def test_the_engines_pipe_is_waited_on_above_descriptor_1023():
    # select() refuses a descriptor of 1024 or more, which a process holding many files gives a new engine's pipes
    import resource
    from sylva._engine import Engine
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft <= 1100:
        pytest.skip(f"this process may open {soft} files only")
    r, w = os.pipe()
    high = os.dup2(r, 1100)
    os.close(r)
    try:
        with open(high, "rb", closefd=False) as stdout:
            proc = type("Proc", (), {"stdout": stdout})()
            assert Engine._wait_readable(proc, 0.05) is False
            os.write(w, b"x")
            assert Engine._wait_readable(proc, 5) is True
    finally:
        os.close(w)
        os.close(high)
