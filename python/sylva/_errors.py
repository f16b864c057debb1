"""The exceptions the package raises besides ValueError and MemoryError."""


class EngineError(RuntimeError):
    """The engine could not be found or started, stopped unexpectedly, or failed in a way that is not the
    input's fault. The message says which, with the last lines the engine wrote on stderr. The next call
    starts a fresh engine."""


class EngineNotFoundError(EngineError):
    """No engine was found: set SYLVA_HOME to an unpacked distribution (its ``bin/sylva``), run from a
    checkout of the repository (its ``./sylva``), or put a ``java`` 25 on PATH and set SYLVA_JAR."""
