"""The engine process: started once per Python process on first use, one request at a time.

Each call writes a request frame on the engine's stdin and reads its one response from a pipe of its own (the
engine's ``--answers-fd``; the engine's stdout joins its stderr) (:mod:`._protocol`). Ctrl-C while the engine computes sends a ``cancel`` frame, waits (a bounded time)
for the engine's answer and raises :class:`KeyboardInterrupt`: the engine stays up for the next call.
If the conversation cannot be kept in step (Ctrl-C while bytes are moving, the engine silent after a
cancel, the engine gone), the engine is killed and the next call starts a fresh one.
"""
from __future__ import annotations

import atexit
import collections
import math
import os
import select
import signal
import subprocess
import sys
import threading
import time
import weakref
from typing import Callable, Dict, List, Optional

import numpy as np

from . import _protocol
from ._errors import EngineError
from ._locate import engine_command

#: Protocol version this package speaks (the engine's ``hello`` says its own).
PROTOCOL = 3
#: How long a cancelled request may take to answer before the engine is killed instead.
CANCEL_WAIT_SECONDS = 10.0
#: How long closing waits for the engine to exit by itself.
CLOSE_WAIT_SECONDS = 3.0
#: How long a new engine may take to say hello (a checkout's ./sylva builds the project on first use).
START_WAIT_SECONDS = 600.0
#: How long the interpreter's exit waits for a request still running in a daemon thread before it kills the engine.
EXIT_WAIT_SECONDS = 1.0
#: Lines of the engine's stderr kept for error messages.
STDERR_LINES = 40
#: Bytes each pipe to and from the engine is asked to hold (Linux; elsewhere, or refused, the default stays).
#: Arrays of a few MiB then cross in a few large writes instead of one 64 KiB round trip after another.
PIPE_BYTES = 1 << 20
#: The JVM prints this on every start with the Vector API module; it says nothing to a Python user.
_JVM_NOISE = "WARNING: Using incubator modules: jdk.incubator.vector"



def _buffered(stream) -> bool:
    """Whether ``stream`` (a buffered pipe) has a byte to read now, in Python's buffer or the pipe's, without
    waiting: a peek with the descriptor non-blocking, which fills an empty buffer from the pipe if it can."""
    fd = stream.fileno()
    os.set_blocking(fd, False)
    try:
        return len(stream.peek(1)) > 0
    except BlockingIOError:
        return False
    finally:
        os.set_blocking(fd, True)


class _NotKept(Exception):
    """The engine no longer holds what a request named by its digest (see :meth:`Engine.call_keeping`)."""


_ERROR_TYPES = {"ValueError": ValueError, "MemoryError": MemoryError, "ModelNotHeld": _NotKept}


class Engine:
    """One ``sylva serve`` process and the conversation with it. Thread-safe: calls are serialised."""

    def __init__(self, command: Optional[List[str]] = None, serve_args: List[str] = (), echo_stderr: bool = True):
        """``command`` runs the CLI (default: :func:`engine_command`); ``serve_args`` are options of
        ``sylva serve`` (e.g. ``["--max-request-mib", "64"]``)."""
        self._command = command
        self._serve_args = list(serve_args)
        self._echo = echo_stderr
        self._lock = threading.RLock()
        _ENGINES.add(self)
        self._proc: Optional[subprocess.Popen] = None
        self._calling_back: Optional[int] = None   # the thread in a request's progress callback (no engine call)
        self._pid = None            # the Python process that started _proc (a fork must start its own)
        self._hello: dict = {}
        self._stderr = collections.deque(maxlen=STDERR_LINES)
        self._next_id = 0
        #: The id of a request sent whose answer has not been read: set before it is written, cleared when its
        #: answer is read. Still set at the next call only when a Ctrl-C escaped between the writing and the
        #: waiting, so that call first cancels it and drops its answer (the stream stays in step).
        self._unanswered: Optional[int] = None
        self._drainer: Optional[threading.Thread] = None
        #: The engine's own time for the last request (the library call), in seconds; None before one.
        self.last_compute_seconds: Optional[float] = None
        #: (kind, digest) of the array the engine keeps from the last request (see call_keeping), or None.
        self._kept: Optional[tuple] = None
        #: Requests that sent a kept array's bytes, and those that named it by its digest alone (tests, bench).
        self.kept_sent = 0
        self.kept_named = 0

    # -- life cycle -------------------------------------------------------------------------------

    @property
    def hello(self) -> dict:
        """The engine's ``hello``: protocol, version, commands and limits (starts the engine)."""
        with self._lock:
            self._ensure_started()
            return dict(self._hello)

    @property
    def pid(self) -> Optional[int]:
        """The engine's process id, or None when none is running."""
        p = self._proc
        return p.pid if p is not None and p.poll() is None and self._pid == os.getpid() else None

    def _ensure_started(self) -> None:
        if self._proc is not None and self._pid == os.getpid() and self._proc.poll() is None:
            return
        if self._proc is not None and self._pid != os.getpid():
            self._proc = None       # a forked child: the parent's engine is the parent's,
            self._unanswered = None  # and so is a request of the parent's still unanswered at the fork
        elif self._proc is not None:
            self._discard()         # it died between calls: start anew
        # The answers come on a pipe of their own (--answers-fd), and the engine's stdout joins its stderr: what the
        # JVM prints on stdout (logs asked for in SYLVA_JAVA_OPTS: -Xlog, -verbose:gc) cannot break the frames.
        answers_r, answers_w = os.pipe()
        errors_r, errors_w = os.pipe()
        command = (self._command or engine_command()) + ["serve"] + self._serve_args + ["--answers-fd", str(answers_w)]
        self._stderr.clear()
        try:
            # A session of its own: Ctrl-C at the terminal reaches Python only, which cancels the work itself.
            proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=errors_w, stderr=errors_w,
                                    pass_fds=(answers_w,), start_new_session=True)
        except OSError as e:
            os.close(answers_r)
            os.close(errors_r)
            raise EngineError(f"cannot start the engine ({' '.join(command)}): {e}") from e
        finally:
            os.close(answers_w)   # the engine's process group holds the other write ends: its exit ends them
            os.close(errors_w)
        proc.stdout = os.fdopen(answers_r, "rb")
        proc.stderr = os.fdopen(errors_r, "rb")
        self._proc, self._pid = proc, os.getpid()
        self._kept = None           # a new engine holds nothing
        _widen_pipes(proc)
        self._drainer = threading.Thread(target=self._drain_stderr, args=(proc,), name="sylva-engine-stderr",
                                         daemon=True)
        self._drainer.start()
        try:
            if not self._wait_readable(proc, START_WAIT_SECONDS):
                raise TimeoutError(f"no hello within {START_WAIT_SECONDS:.0f} s")
            hello = _protocol.read(proc.stdout)
        except BaseException as e:
            try:   # an engine whose output ended is exiting: its status tells why (a launcher's own error)
                code = proc.wait(timeout=1.0) if isinstance(e, EOFError) else proc.poll()
            except subprocess.TimeoutExpired:
                code = None
            self._discard()
            if isinstance(e, (EOFError, OSError, _protocol.ProtocolError, ValueError)):
                status = f", exit status {code}" if code is not None else ""
                raise EngineError(f"the engine did not start ({' '.join(command)}{status}): {e}{self._tail()}") \
                    from None
            raise
        if hello.kind != "hello" or hello.params.get("protocol") != PROTOCOL:
            self._discard()
            raise EngineError(f"the engine speaks protocol {hello.params.get('protocol')!r}, this package "
                              f"{PROTOCOL}: install the package and the engine from the same version")
        self._hello = hello.params

    def _drain_stderr(self, proc: subprocess.Popen) -> None:
        # one pass per line; ends when the engine's stderr closes
        for raw in iter(proc.stderr.readline, b""):
            line = raw.decode("utf-8", "replace").rstrip("\n")
            if line == _JVM_NOISE:
                continue
            self._stderr.append(line)
            if self._echo:
                # a stderr that cannot take the line (closed, a stream without flush, a strict encoding) must not
                # end this thread: the engine would then block on a full pipe and every later call hang
                try:
                    print(line, file=sys.stderr, flush=True)
                except Exception:   # noqa: BLE001
                    pass

    def _tail(self) -> str:
        time.sleep(0.05)   # let the stderr thread catch the last lines of a dying engine
        lines = list(self._stderr)
        return ("; the engine's stderr ended with:\n  " + "\n  ".join(lines)) if lines else ""

    def _discard(self) -> None:
        """Kills the engine (its whole process group) and forgets it."""
        proc, self._proc = self._proc, None
        self._unanswered = None
        if proc is None:
            return
        if self._pid == os.getpid() and proc.poll() is None:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except OSError:
                proc.kill()
            proc.wait()
        if self._drainer is not None and self._pid == os.getpid():
            self._drainer.join(timeout=1.0)   # the engine is gone: its stderr ends
        for s in (proc.stdin, proc.stdout, proc.stderr):
            try:
                s.close()
            except OSError:
                pass

    def close(self) -> None:
        """Ends the engine: closes its stdin (it exits by itself) and kills it if it lingers."""
        with self._lock:
            proc = self._proc
            if proc is None or self._pid != os.getpid():
                self._proc = None
                return
            try:
                proc.stdin.close()
                proc.wait(timeout=CLOSE_WAIT_SECONDS)
            except (OSError, subprocess.TimeoutExpired):
                pass
            self._discard()

    def close_at_exit(self) -> None:
        """:meth:`close` at the interpreter's exit, which a request still running in a daemon thread (the only kind
        left then) does not hold up: after :data:`EXIT_WAIT_SECONDS` the engine is killed, ending that request."""
        if self._lock.acquire(timeout=EXIT_WAIT_SECONDS):
            try:
                self.close()
            finally:
                self._lock.release()
            return
        proc = self._proc
        if proc is not None and self._pid == os.getpid() and proc.poll() is None:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except OSError:
                proc.kill()

    # -- requests ---------------------------------------------------------------------------------

    def call(self, kind: str, params: dict, arrays: Dict[str, np.ndarray],
             progress: Optional[Callable[[str, int, int], None]] = None) -> _protocol.Frame:
        """Sends one request and returns the ``ok`` response; an ``error`` response is raised as the
        exception it names (ValueError, MemoryError, else :class:`EngineError`). With ``progress``, the
        request asks for the engine's progress frames, and each one is passed to it as ``(stage, done,
        total)`` while the request runs."""
        if self._calling_back == threading.get_ident():
            raise EngineError("a progress callback cannot call the engine: its request is still running")
        if progress is not None:
            params = dict(params, progress=True)
        with self._lock:
            self._ensure_started()
            self._check_limits(kind, arrays)
            if self._kept is not None and self._kept[0] != kind:
                self._kept = None   # the engine releases what one kind of request keeps before another kind
            if self._unanswered is not None:
                self._cancel(self._proc)   # a Ctrl-C came after the last request went out, before its wait
                if self._proc is None:     # it could not be kept in step and was killed: a fresh one
                    self._ensure_started()
            self._next_id += 1
            rid = self._next_id
            proc = self._proc
            self._unanswered = rid
            try:
                _protocol.write(proc.stdin, kind, dict(params, id=rid), arrays)
            except BaseException as e:
                # half a frame may have gone out: the stream is out of step
                self._discard()
                if isinstance(e, OSError):
                    raise EngineError(f"the engine stopped ({e}){self._tail()}") from None
                raise
            response = self._await_response(proc, progress)
            self._unanswered = None
            # the answers come in order; only a refusal of unreadable parameters can lack the id
            if response.params.get("id") != rid and not (response.kind == "error" and "id" not in response.params):
                self._discard()
                raise EngineError(f"the engine answered request {response.params.get('id')!r}, not {rid}")
        if response.kind == "ok":
            self.last_compute_seconds = response.params.get("compute_seconds")
            return response
        if response.kind == "cancelled":
            raise KeyboardInterrupt("the engine's work was cancelled")
        message = response.params.get("message", "the engine failed")
        raise _ERROR_TYPES.get(response.params.get("type"), EngineError)(message)

    def call_keeping(self, kind: str, params: dict, arrays: Dict[str, np.ndarray], name: str, value: np.ndarray,
                     digest: str) -> _protocol.Frame:
        """As :meth:`call`, with array ``name`` = ``value``, which the engine keeps between requests of this
        kind (a ``predict`` request's model): when the engine holds the array of this ``digest`` (its
        SHA-256, sent as ``name + "_sha256"``), only the digest is sent; if the engine no longer holds it
        (it answers ``ModelNotHeld``), or holds another, the bytes are sent with it."""
        key = name + "_sha256"
        with self._lock:
            if self._kept == (kind, digest):
                try:
                    response = self.call(kind, dict(params, **{key: digest}), arrays)
                    self.kept_named += 1
                    return response
                except _NotKept:
                    self._kept = None
            response = self.call(kind, dict(params, **{key: digest}), dict(arrays, **{name: value}))
            self.kept_sent += 1
            self._kept = (kind, digest)
            return response

    def _await_response(self, proc: subprocess.Popen,
                        progress: Optional[Callable[[str, int, int], None]] = None) -> _protocol.Frame:
        """The request's answer; the progress frames before it (sent only when asked for) go to ``progress``."""
        while True:   # one pass per frame: the engine writes its answer after the request's last progress frame
            try:
                # Wait for the first byte outside the read, so that Ctrl-C here leaves the stream in step.
                self._wait_readable(proc, None)
            except KeyboardInterrupt:
                self._cancel(proc)
                raise
            frame = self._read(proc)
            if frame.kind != "progress":
                # answered: no longer a request to cancel, before a Ctrl-C between here and the caller could make the
                # next call cancel it (a cancel with nothing running gets no answer: a restart after the wait)
                self._unanswered = None
                return frame
            if progress is not None:
                self._calling_back = threading.get_ident()
                try:
                    progress(frame.params.get("stage"), frame.params.get("done"), frame.params.get("total"))
                except BaseException:
                    # Ctrl-C, or the callback's own failure: the request is cancelled and read to its answer, so
                    # that the stream stays in step for the next call
                    self._cancel(proc)
                    raise
                finally:
                    self._calling_back = None

    def _read(self, proc: subprocess.Popen) -> _protocol.Frame:
        try:
            return _protocol.read(proc.stdout)
        except BaseException as e:
            self._discard()
            if isinstance(e, (EOFError, OSError, _protocol.ProtocolError, ValueError)):
                code = proc.poll()
                status = f"exit status {code}" if code is not None else "still running"
                raise EngineError(f"the engine stopped answering ({status}): {e}{self._tail()}") from None
            raise

    @staticmethod
    def _wait_readable(proc: subprocess.Popen, timeout: Optional[float]) -> bool:
        """True once the engine's stdout has a byte (or its end) to read; False after ``timeout`` seconds. A
        byte already in Python's buffer counts: reading one frame can buffer the next (a request's progress
        frames and its answer), and the pipe then stays quiet however long one waits on it."""
        if _buffered(proc.stdout):
            return True
        # poll, not select: select refuses a descriptor of 1024 or more, which a process holding many files
        # (a server, a long notebook) gives the pipes of an engine it starts
        poller = select.poll()
        poller.register(proc.stdout.fileno(), select.POLLIN)
        return bool(poller.poll(None if timeout is None else max(0, int(math.ceil(timeout * 1000)))))

    def _cancel(self, proc: subprocess.Popen) -> None:
        """Asks the engine to stop the running request and reads its answer, which is dropped; kills the
        engine when it cannot be kept in step (no answer in time, a second Ctrl-C, a broken pipe)."""
        try:
            _protocol.write(proc.stdin, "cancel", {}, {})
            deadline = time.monotonic() + CANCEL_WAIT_SECONDS
            while True:   # the answer, after any progress frames written before the cancel arrived
                if not self._wait_readable(proc, max(0.0, deadline - time.monotonic())):
                    self._discard()
                    return
                if self._read(proc).kind != "progress":
                    self._unanswered = None
                    return
        except BaseException:
            self._discard()
            raise

    def _check_limits(self, kind: str, arrays: Dict[str, np.ndarray]) -> None:
        h = self._hello
        total = sum(a.nbytes for a in arrays.values())
        for name, a in arrays.items():
            if a.size > h.get("max_array_elements", a.size):
                raise ValueError(f"{kind}: array {name!r} has {a.size} elements; the engine takes at most "
                                 f"{h['max_array_elements']} in one array")
        if total > h.get("max_frame_bytes", total):
            raise ValueError(f"{kind}: the input has {total} bytes ({total / 2**20:.1f} MiB); the engine takes at "
                             f"most {h['max_frame_bytes']} bytes in one request (sylva serve --max-request-mib)")


def _widen_pipes(proc: subprocess.Popen) -> None:
    """Asks the kernel for :data:`PIPE_BYTES` in the request and response pipes (``F_SETPIPE_SZ``). A refusal
    (another system, a user over the pipe quota) only leaves the default size."""
    try:
        import fcntl
        setsize = getattr(fcntl, "F_SETPIPE_SZ", 1031 if sys.platform.startswith("linux") else None)
    except ImportError:
        return
    if setsize is None:
        return
    for stream in (proc.stdin, proc.stdout):
        try:
            fcntl.fcntl(stream.fileno(), setsize, PIPE_BYTES)
        except (OSError, ValueError):
            pass


_engine: Optional[Engine] = None
_engine_lock = threading.Lock()
#: Every Engine of this process, for the fork handler below.
_ENGINES: "weakref.WeakSet[Engine]" = weakref.WeakSet()


def _after_fork_in_child() -> None:
    """A forked child gets fresh locks (a lock another thread of the parent held at the fork would be held for
    good in the child, and the child's first call would wait forever) and lets go of the parent's engine pipes:
    each is pointed at /dev/null, so that the parent closing its end reaches its engine as the end of input
    (else the engine lingers until the parent's close times out) and the child cannot write into the parent's
    stream. The file objects stay open on /dev/null, so no later close hits a reused descriptor."""
    global _engine_lock
    _engine_lock = threading.Lock()
    null = None
    try:
        for e in list(_ENGINES):
            e._lock = threading.RLock()
            if e._pid != os.getpid():
                e._unanswered = None   # the parent's request, which the child's engine will never answer
            proc = e._proc
            if proc is None or e._pid == os.getpid():
                continue
            if null is None:
                null = os.open(os.devnull, os.O_RDWR)
            for stream in (proc.stdin, proc.stdout, proc.stderr):
                try:
                    os.dup2(null, stream.fileno())
                except (OSError, ValueError):
                    pass
    finally:
        if null is not None:
            os.close(null)


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


def get_engine() -> Engine:
    """The process's engine (started on its first call)."""
    global _engine
    with _engine_lock:
        if _engine is None:
            _engine = Engine()
            atexit.register(_engine.close_at_exit)
        return _engine
