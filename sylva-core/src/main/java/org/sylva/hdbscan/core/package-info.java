/**
 * HDBSCAN's first stage: core distances, each point's distance to its {@code minSamples}-th nearest
 * point ({@link org.sylva.hdbscan.core.CoreDistances}), found by an exact neighbour search over the
 * point index with a float32 pre-filter whose error bound is proven.
 *
 * <p>Internal: public for Sylva's engines and tests; no compatibility promise across versions. A library
 * user reads core distances from {@code HdbscanResult.coreDistances()}.
 */
package org.sylva.hdbscan.core;
