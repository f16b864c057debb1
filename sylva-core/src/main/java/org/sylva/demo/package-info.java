/**
 * The built-in demo data: {@link org.sylva.demo.ClipLikeData}, clip-like spike waveforms with the template each clip
 * was drawn from, the same on every machine for one seed. {@code sylva demo} clusters it, and the benchmarks time it.
 *
 * <pre>{@code
 * ClipLikeData demo = ClipLikeData.generate(20_000, 20240);
 * HdbscanResult r = Hdbscan.builder().minClusterSize(20).build().fit(demo.points());
 * }</pre>
 */
package org.sylva.demo;
