package org.sylva.io;

import java.util.Arrays;
import java.util.Objects;
import java.util.function.Consumer;
import org.sylva.data.InvalidInputException;
import org.sylva.data.PointSet;

/**
 * An immutable n-dimensional array as read from (or to be written to) a {@code .npy} file: its
 * element type, its shape and its values in C (row-major) order with native values, whatever the
 * file's byte order and memory order were. The {@code to...} accessors return fresh arrays,
 * converting between types exactly or saying why they cannot: a value that would change is either
 * reported through a warning (float conversions, once per call) or refused with an
 * {@link NpyFormatException} naming the file, the element and the value (integer and bool
 * conversions). float16, int8, int16, uint16, uint8 and bool convert to float32 exactly (float16
 * including subnormals, infinities and NaN); everything but int64 beyond 2^53 converts to float64
 * exactly.
 *
 * <p>Why one file of about 440 lines: each conversion is a switch over the same element types
 * with the same exactness rules; spread over classes, the rules would have to be read in several
 * places to see that every pair of types is covered.
 *
 * <pre>{@code
 * NpyArray a = Npy.read(Path.of("clips.npy"));            // e.g. float64, shape (5000, 48)
 * PointSet points = a.toPointSet(System.err::println);    // float64 kept exact, as a fit takes it
 * PointSet f32 = a.toFloat32PointSet(System.err::println); // rounded to float32, warning once if a value changed
 * int[] ids = Npy.read(Path.of("batch.npy")).toInt32();   // int64 ids, refused if out of int range
 * }</pre>
 */
public final class NpyArray {
    private final NpyDtype dtype;
    private final int[] shape;
    /**
     * float[], double[], int[], long[] (INT64; UINT32 and UINT64 as their values, UINT64 at most 2^63 - 1),
     * short[] (INT16, UINT16 as unsigned bits, FLOAT16 as IEEE half bits) or byte[] (INT8, UINT8 as unsigned
     * bits, BOOL normalised to 0/1); never exposed.
     */
    private final Object data;
    private final String source;

    /** Takes ownership of {@code data}; the reader and the writers' wrappers guarantee its length. */
    NpyArray(NpyDtype dtype, int[] shape, Object data, String source) {
        this.dtype = dtype;
        this.shape = shape;
        this.data = data;
        this.source = source;
    }

    // ---------------------------------------------------------------- factories (copying)

    /** A float32 array of the given shape ({@code ()} for a single value), copying {@code data}. */
    public static NpyArray ofFloat32(float[] data, int... shape) {
        return new NpyArray(NpyDtype.FLOAT32, checkShape(data.length, shape), data.clone(), "<memory>");
    }

    public static NpyArray ofFloat64(double[] data, int... shape) {
        return new NpyArray(NpyDtype.FLOAT64, checkShape(data.length, shape), data.clone(), "<memory>");
    }

    public static NpyArray ofInt32(int[] data, int... shape) {
        return new NpyArray(NpyDtype.INT32, checkShape(data.length, shape), data.clone(), "<memory>");
    }

    public static NpyArray ofInt64(long[] data, int... shape) {
        return new NpyArray(NpyDtype.INT64, checkShape(data.length, shape), data.clone(), "<memory>");
    }

    public static NpyArray ofUint8(byte[] data, int... shape) {
        return new NpyArray(NpyDtype.UINT8, checkShape(data.length, shape), data.clone(), "<memory>");
    }

    public static NpyArray ofBool(boolean[] data, int... shape) {
        int[] s = checkShape(data.length, shape);
        byte[] b = new byte[data.length];
        for (int i = 0; i < b.length; i++) b[i] = data[i] ? (byte) 1 : (byte) 0;
        return new NpyArray(NpyDtype.BOOL, s, b, "<memory>");
    }

    /** Checks that the shape's dims are >= 0 and multiply to {@code length}; returns a copy. */
    static int[] checkShape(int length, int[] shape) {
        Objects.requireNonNull(shape, "shape");
        long count = 1;
        for (int i = 0; i < shape.length; i++) {
            if (shape[i] < 0) {
                throw new InvalidInputException("negative dimension " + shape[i] + " at axis " + i + " of shape "
                        + Arrays.toString(shape));
            }
            count *= shape[i];
            if (count > Integer.MAX_VALUE) count = Integer.MAX_VALUE + 1L; // stays "too many", no overflow
        }
        if (count != length) {
            throw new InvalidInputException("shape " + Arrays.toString(shape) + " holds "
                    + (count > Integer.MAX_VALUE ? "more than " + Integer.MAX_VALUE : String.valueOf(count))
                    + " values but the data has " + length);
        }
        return shape.clone();
    }

    // ---------------------------------------------------------------- description

    public NpyDtype dtype() {
        return dtype;
    }

    /** A copy of the shape; {@code []} for a 0-d array. */
    public int[] shape() {
        return shape.clone();
    }

    public int rank() {
        return shape.length;
    }

    /** Number of elements (the product of the shape; 1 for a 0-d array). */
    public int size() {
        return switch (data) {
            case float[] f -> f.length;
            case double[] d -> d.length;
            case int[] i -> i.length;
            case long[] l -> l.length;
            case short[] s -> s.length;
            case byte[] b -> b.length;
            default -> throw new IllegalStateException();
        };
    }

    /** The file or stream the array was read from ({@code "<memory>"} for arrays built in code). */
    public String source() {
        return source;
    }

    /** The same array attributed to another source name (messages then name that file). */
    public NpyArray withSource(String newSource) {
        return new NpyArray(dtype, shape, data, newSource);
    }

    /** The backing array, shared: for the writers and package-internal readers only. */
    Object rawData() {
        return data;
    }

    // ---------------------------------------------------------------- conversions

    /**
     * The values as float32. float32 data is copied; float16, int8, int16, uint16, uint8 and bool
     * convert exactly; float64, int32, int64, uint32 and uint64 are rounded to the nearest float32 and, if any value changes, {@code warnings}
     * receives ONE message naming the file, how many values changed and the first of them.
     */
    public float[] toFloat32(Consumer<String> warnings) {
        Objects.requireNonNull(warnings, "warnings");
        int n = size();
        float[] out = new float[n];
        long inexact = 0, overflow = 0;
        int first = -1, firstOverflow = -1;
        switch (data) {
            case float[] f -> System.arraycopy(f, 0, out, 0, n);
            case double[] d -> {
                for (int i = 0; i < n; i++) {
                    double v = d[i];
                    float r = (float) v;
                    out[i] = r;
                    // NaN stays NaN (any payload); compare in float64, where every float32 is exact.
                    if (r != v && !Double.isNaN(v)) {
                        if (Float.isInfinite(r)) {
                            overflow++;
                            if (firstOverflow < 0) firstOverflow = i;
                        } else {
                            inexact++;
                            if (first < 0) first = i;
                        }
                    }
                }
            }
            case int[] a -> {
                for (int i = 0; i < n; i++) {
                    float r = (float) a[i];
                    out[i] = r;
                    if ((long) r != a[i]) {
                        inexact++;
                        if (first < 0) first = i;
                    }
                }
            }
            case long[] a -> {
                for (int i = 0; i < n; i++) {
                    float r = (float) a[i];
                    out[i] = r;
                    // (long) saturates at 2^63, which no long equals exactly: test that case first.
                    if (r >= 0x1p63f || (long) r != a[i]) {
                        inexact++;
                        if (first < 0) first = i;
                    }
                }
            }
            case short[] s -> {
                for (int i = 0; i < n; i++) out[i] = shortValue(s[i]);
            }
            case byte[] b -> {
                if (dtype == NpyDtype.INT8) {
                    for (int i = 0; i < n; i++) out[i] = b[i];
                } else {
                    for (int i = 0; i < n; i++) out[i] = b[i] & 0xff;
                }
            }
            default -> throw new IllegalStateException();
        }
        if (inexact + overflow > 0) {
            // each kind names its own first value: an overflow is what a later "is +inf" error is about
            StringBuilder m = new StringBuilder(source).append(": ");
            if (inexact > 0) {
                m.append(inexact).append(" of ").append(n).append(' ').append(dtype.numpyName())
                        .append(" values are not exactly representable as float32 and were rounded (first: ")
                        .append(valueText(first)).append(" at ").append(where(first)).append(')');
            }
            if (overflow > 0) {
                if (inexact > 0) m.append("; ");
                m.append(overflow).append(" of ").append(n).append(" values exceed the float32 range (about 3.4e38)"
                        + " and became infinite (first: ").append(valueText(firstOverflow)).append(" at ")
                        .append(where(firstOverflow)).append(')');
            }
            warnings.accept(m.toString());
        }
        return out;
    }

    /**
     * Refuses a finite value that float32 cannot hold (one that rounds beyond {@code +-Float.MAX_VALUE}),
     * naming the file, the value's place and the value, before {@link #toFloat32} would turn it into an
     * infinity that a later check could only call "+inf". Types float32 holds ({@link NpyDtype#fitsFloat32()})
     * pass at once; NaN and infinities pass too (float32 keeps them, and finiteness is the caller's check).
     *
     * <pre>{@code
     * NpyArray a = Npy.read(path);
     * a.requireFloat32Range("the ball tree");   // "points.npy: row 6, column 1 is 1.0E39, beyond float32's range ..."
     * }</pre>
     *
     * @param consumer what works in float32, for the message (e.g. {@code "the ball tree"})
     * @throws InvalidInputException naming the first such value
     */
    public void requireFloat32Range(String consumer) {
        if (dtype.fitsFloat32()) return;
        int n = size();
        int bad = -1;
        switch (data) {
            case double[] d -> {
                for (int i = 0; i < n && bad < 0; i++) {
                    if (Double.isFinite(d[i]) && Float.isInfinite((float) d[i])) bad = i;
                }
            }
            // int32 and int64 reach at most 9.3e18: float32 holds every one of them, rounded
            default -> { }
        }
        if (bad >= 0) {
            throw new InvalidInputException(source + ": " + where(bad) + " (counting from 0) is " + valueText(bad)
                    + ", beyond float32's range (+-" + Float.MAX_VALUE + "), in which " + consumer + " works");
        }
    }

    /**
     * The values as float64, exactly. int64 values beyond 2^53 that float64 cannot hold exactly are
     * refused (use {@link #toFloat64(Consumer)} to round them with a warning instead).
     */
    public double[] toFloat64() {
        return toFloat64(null);
    }

    /**
     * The values as float64; int64 values that float64 cannot hold exactly are rounded and reported
     * in one warning, or refused when {@code warnings} is null.
     */
    public double[] toFloat64(Consumer<String> warnings) {
        int n = size();
        double[] out = new double[n];
        switch (data) {
            case float[] f -> {
                for (int i = 0; i < n; i++) out[i] = f[i];
            }
            case double[] d -> System.arraycopy(d, 0, out, 0, n);
            case int[] a -> {
                for (int i = 0; i < n; i++) out[i] = a[i];
            }
            case long[] a -> {
                long inexact = 0;
                int first = -1;
                for (int i = 0; i < n; i++) {
                    double r = (double) a[i];
                    out[i] = r;
                    if (r >= 0x1p63 || (long) r != a[i]) {
                        if (warnings == null) {
                            throw new NpyFormatException(source, dtype.numpyName() + " value " + a[i] + " at " + where(i)
                                    + " is not exactly representable as float64 (integers beyond 2^53 ="
                                    + " 9007199254740992 in magnitude are not)");
                        }
                        inexact++;
                        if (first < 0) first = i;
                    }
                }
                if (inexact > 0) {
                    warnings.accept(source + ": " + inexact + " of " + n + " " + dtype.numpyName()
                            + " values are not exactly representable"
                            + " as float64 and were rounded (first: " + a[first] + " at " + where(first) + ")");
                }
            }
            case short[] s -> {
                for (int i = 0; i < n; i++) out[i] = shortValue(s[i]);
            }
            case byte[] b -> {
                if (dtype == NpyDtype.INT8) {
                    for (int i = 0; i < n; i++) out[i] = b[i];
                } else {
                    for (int i = 0; i < n; i++) out[i] = b[i] & 0xff;
                }
            }
            default -> throw new IllegalStateException();
        }
        return out;
    }

    /** The values as int32; anything that is not an integer in int32's range is refused. */
    public int[] toInt32() {
        if (data instanceof int[] a) return a.clone();
        int n = size();
        int[] out = new int[n];
        for (int i = 0; i < n; i++) out[i] = (int) checkedInteger(i, Integer.MIN_VALUE, Integer.MAX_VALUE, "int32");
        return out;
    }

    /** The values as int64; floats must hold integers in int64's range. */
    public long[] toInt64() {
        if (data instanceof long[] a) return a.clone();
        int n = size();
        long[] out = new long[n];
        for (int i = 0; i < n; i++) out[i] = checkedInteger(i, Long.MIN_VALUE, Long.MAX_VALUE, "int64");
        return out;
    }

    /** The values as unsigned bytes (0..255 stored in Java bytes); anything else is refused. */
    public byte[] toUint8() {
        if (dtype == NpyDtype.UINT8 || dtype == NpyDtype.BOOL) return ((byte[]) data).clone();
        int n = size();
        byte[] out = new byte[n];
        for (int i = 0; i < n; i++) out[i] = (byte) checkedInteger(i, 0, 255, "uint8");
        return out;
    }

    /** The values as booleans; every value must be exactly 0 or 1 (bool arrays always are). */
    public boolean[] toBool() {
        int n = size();
        boolean[] out = new boolean[n];
        for (int i = 0; i < n; i++) out[i] = checkedInteger(i, 0, 1, "bool") == 1;
        return out;
    }

    /**
     * The array as points, exactly: a 2-D array of shape {@code (n, d)} gives n points of d coordinates, a
     * 1-D array of length n gives n points of one coordinate. A type float32 holds exactly
     * ({@link NpyDtype#fitsFloat32()}) gives a float32 set; float64 and the 32- and 64-bit integers give a float64 set
     * ({@link PointSet#ofFloat64}), so that a fit sees the values scikit-learn sees (int64 beyond 2^53 is
     * refused, as by {@link #toFloat64()}). As {@link NumericTable#toPointSet()} for text. Finiteness is NOT
     * checked here: callers decide (see {@link PointSet#requireFinite()}).
     *
     * @param warnings unused today (no conversion here rounds); kept so that the exact and the float32
     *     forms are called alike
     */
    public PointSet toPointSet(Consumer<String> warnings) {
        int[] nd = pointShape();
        if (dtype.fitsFloat32()) return PointSet.unchecked(nd[0], nd[1], toFloat32(warnings));
        return PointSet.uncheckedFloat64(nd[0], nd[1], toFloat64());
    }

    /**
     * The array as float32 points (shapes as {@link #toPointSet}), values converted as by
     * {@link #toFloat32(Consumer)}: float64 and the 32- and 64-bit integers rounded to nearest, with one warning naming the
     * first value that changed. What the ball tree (whose reference is float32) and plots read.
     */
    public PointSet toFloat32PointSet(Consumer<String> warnings) {
        int[] nd = pointShape();
        return PointSet.unchecked(nd[0], nd[1], toFloat32(warnings));
    }

    /** As {@link #toFloat32PointSet} but hands a float32 array over without a copy; the caller drops this array. */
    public PointSet toFloat32PointSetTransferring(Consumer<String> warnings) {
        int[] nd = pointShape();
        return PointSet.unchecked(nd[0], nd[1], toFloat32Transferring(warnings));
    }

    /**
     * As {@link #toFloat32}, but float32 data is handed over without a copy: the backing array itself, which
     * the caller treats as read-only while this array stays in use (as {@link PointSet#coordinates()}), and
     * for which it drops this array. A large input is then held once, not twice.
     *
     * <pre>{@code
     * float[] values = Npy.read(path).toFloat32Transferring(warnings::add);   // no second copy of a float32 file
     * }</pre>
     */
    public float[] toFloat32Transferring(Consumer<String> warnings) {
        return data instanceof float[] f ? f : toFloat32(warnings);
    }

    /**
     * Refuses a uint64 array holding a value beyond 2^63 - 1 (held as a negative long), naming the first: Sylva's
     * integers are int64, and no id, count or coordinate it reads needs more.
     */
    void requireUint64InLongRange() {
        long[] a = (long[]) data;
        for (int i = 0; i < a.length; i++) {
            if (a[i] < 0) {
                throw new NpyFormatException(source, "uint64 value " + Long.toUnsignedString(a[i]) + " at " + where(i)
                        + " is beyond int64's range (up to " + Long.MAX_VALUE + "), the largest integer Sylva reads");
            }
        }
    }

    private int[] pointShape() {
        String s = shapeText();
        if (shape.length == 0) {
            throw new NpyFormatException(source, "a 0-d array (a single value) is not a set of points;"
                    + " expected shape (n, d) or (n,)");
        }
        if (shape.length > 2) {
            throw new NpyFormatException(source, "points must be a 2-D array of shape (n, d), found shape " + s);
        }
        int n = shape[0];
        int d = shape.length == 2 ? shape[1] : 1;
        if (d == 0) {
            throw new NpyFormatException(source, "shape " + s + " has no coordinates; points need d >= 1");
        }
        return new int[] {n, d};
    }

    /** The value at flat index i as an exact integer in [min, max], or an NpyFormatException. */
    private long checkedInteger(int i, long min, long max, String target) {
        long v;
        switch (data) {
            case float[] f -> v = integral(f[i], i, target);
            case double[] d -> v = integral(d[i], i, target);
            case int[] a -> v = a[i];
            case long[] a -> v = a[i];
            case short[] s when dtype == NpyDtype.FLOAT16 -> v = integral(Float.float16ToFloat(s[i]), i, target);
            case short[] s -> v = dtype == NpyDtype.INT16 ? s[i] : s[i] & 0xffff;
            case byte[] b -> v = dtype == NpyDtype.INT8 ? b[i] : b[i] & 0xff;
            default -> throw new IllegalStateException();
        }
        if (v < min || v > max) {
            throw new NpyFormatException(source, dtype.numpyName() + " value " + valueText(i) + " at " + where(i)
                    + " is out of range for " + target + " (" + min + " to " + max + ")");
        }
        return v;
    }

    private long integral(double x, int i, String target) {
        if (Double.isNaN(x) || Double.isInfinite(x) || Math.rint(x) != x) {
            throw new NpyFormatException(source, dtype.numpyName() + " value " + valueText(i) + " at " + where(i)
                    + " is not an integer; cannot convert to " + target);
        }
        if (x >= 0x1p63 || x < -0x1p63) {
            throw new NpyFormatException(source, dtype.numpyName() + " value " + valueText(i) + " at " + where(i)
                    + " is out of range for " + target);
        }
        return (long) x;
    }

    private String valueText(int i) {
        return switch (data) {
            case float[] f -> Float.toString(f[i]);
            case double[] d -> Double.toString(d[i]);
            case int[] a -> Integer.toString(a[i]);
            case long[] a -> Long.toString(a[i]);
            case short[] s when dtype == NpyDtype.FLOAT16 -> Float.toString(Float.float16ToFloat(s[i]));
            case short[] s -> Integer.toString(dtype == NpyDtype.INT16 ? s[i] : s[i] & 0xffff);
            case byte[] b -> Integer.toString(dtype == NpyDtype.INT8 ? b[i] : b[i] & 0xff);
            default -> "?";
        };
    }

    /** "index 7" for 1-D arrays, "row 3, column 1" for 2-D, "element (1, 2, 0)" for higher ranks. */
    private String where(int flat) {
        if (shape.length <= 1) return "index " + flat;
        if (shape.length == 2) return "row " + (flat / shape[1]) + ", column " + (flat % shape[1]);
        int[] idx = new int[shape.length];
        int rest = flat;
        for (int a = shape.length - 1; a >= 0; a--) {
            idx[a] = rest % shape[a];
            rest = rest / shape[a];
        }
        StringBuilder b = new StringBuilder("element (");
        for (int a = 0; a < idx.length; a++) {
            if (a > 0) b.append(", ");
            b.append(idx[a]);
        }
        return b.append(')').toString();
    }

    private String shapeText() {
        long[] l = new long[shape.length];
        for (int i = 0; i < l.length; i++) l[i] = shape[i];
        return NpyHeader.shapeText(l);
    }

    /** Same dtype, shape and values (the source name is not compared). */
    @Override
    public boolean equals(Object o) {
        if (!(o instanceof NpyArray other)) return false;
        return dtype == other.dtype && Arrays.equals(shape, other.shape)
                && Objects.deepEquals(new Object[] {data}, new Object[] {other.data});
    }

    @Override
    public int hashCode() {
        return Objects.hash(dtype, Arrays.hashCode(shape), Arrays.deepHashCode(new Object[] {data}));
    }

    @Override
    public String toString() {
        return "NpyArray[" + dtype.numpyName() + " " + shapeText() + " from " + source + "]";
    }

    /** The exact value of one 16-bit element of this array: int16, uint16 or float16. */
    private float shortValue(short v) {
        return switch (dtype) {
            case INT16 -> v;
            case UINT16 -> v & 0xffff;
            default -> Float.float16ToFloat(v);
        };
    }
}
