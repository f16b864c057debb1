"""The engine's progress frames printed for a person: ``sylva.HDBSCAN(verbose=True)``.

>>> p = StageProgress()
>>> p("core distances", 50, 200)   # prints "sylva: core distances 25.0 % (0.0 s)" on stderr
"""
from __future__ import annotations

import sys
import time
from typing import Optional, TextIO


class StageProgress:
    """A callable for :meth:`sylva.Engine.call`'s ``progress``: prints one line per stage when it starts and when it
    ends, and at most one every ``interval`` seconds in between, with the stage's share done and its time so far."""

    def __init__(self, stream: Optional[TextIO] = None, interval: float = 1.0):
        self._stream = stream
        self._interval = interval
        self._stage = None
        self._started = 0.0
        self._last = 0.0

    def __call__(self, stage, done, total) -> None:
        now = time.monotonic()
        first = stage != self._stage
        if first:
            self._stage, self._started = stage, now
        elif done < total and now - self._last < self._interval:
            return
        self._last = now
        if done == 0 and total <= 1:
            # the stage's start marker, (0, 1): its work is not counted yet (the core distances' index is built
            # first), so no share that would only mislead
            text = "preparing"
        else:
            text = f"{100.0 * done / total if total else 100.0:.1f} %"
        print(f"sylva: {stage} {text} ({now - self._started:.1f} s)", file=self._stream or sys.stderr, flush=True)
