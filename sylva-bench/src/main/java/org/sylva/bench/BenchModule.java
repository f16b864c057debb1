package org.sylva.bench;
/** Marker for the benchmark module; the harness and JMH benchmarks live beside it. */
final class BenchModule { private BenchModule() { } }
