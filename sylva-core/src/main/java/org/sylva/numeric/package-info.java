/**
 * Floating-point arithmetic in the order another library performs it, so that Sylva's doubles are that
 * library's doubles: {@link org.sylva.numeric.NumpySum} sums as NumPy sums; and doubles in the order Java
 * sorts them, as primitive keys ({@link org.sylva.numeric.DoubleOrder}).
 *
 * <pre>{@code
 * double s = NumpySum.of(v, 0, v.length);
 * }</pre>
 *
 * <p>Internal: public so that Sylva's other modules and its tests reach it; no compatibility promise across
 * versions.
 */
package org.sylva.numeric;
