package org.sylva.io;

import java.nio.ByteOrder;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The validated contents of a {@code .npy} header: element type, byte order, memory order and shape.
 * {@link #parse} accepts exactly what NumPy writes (and the variants NumPy itself reads: other
 * whitespace, either quote, Python 2 {@code L} suffixes) and refuses everything else with an
 * {@link NpyFormatException}.
 *
 * @param dtype        element type
 * @param order        byte order of the data in the file
 * @param fortranOrder whether the data is stored column-major (first index varies fastest)
 * @param shape        the dimensions; each is {@code >= 0}, but may exceed an int (checked by the reader)
 * @param elementCount product of the dimensions (checked not to overflow a long)
 * @param descr        the descr string as written in the file, for messages
 */
record NpyHeader(NpyDtype dtype, ByteOrder order, boolean fortranOrder, long[] shape, long elementCount, String descr) {
    private static final Set<String> KEYS = Set.of("descr", "fortran_order", "shape");

    /** Data bytes the header promises: element count times item size, or -1 when that overflows a long. */
    long dataBytes() {
        long n = elementCount;
        int size = dtype.itemSize();
        return n > Long.MAX_VALUE / size ? -1 : n * size;
    }

    /** The shape as NumPy prints it: {@code ()}, {@code (3,)}, {@code (3, 2)}. */
    String shapeText() {
        return shapeText(shape);
    }

    static String shapeText(long[] shape) {
        StringBuilder b = new StringBuilder("(");
        for (int i = 0; i < shape.length; i++) {
            if (i > 0) b.append(", ");
            b.append(shape[i]);
        }
        if (shape.length == 1) b.append(',');
        return b.append(')').toString();
    }

    /**
     * Parses and validates the header text.
     *
     * @param text   the header as decoded from the file (latin-1 for versions 1 and 2, UTF-8 for 3)
     * @param major  the format's major version (Python 2 {@code L} suffixes are allowed below 3)
     * @param source file name for messages
     */
    static NpyHeader parse(String text, int major, String source) {
        Object literal;
        try {
            literal = PyLiteral.parse(text, major < 3);
        } catch (PyLiteral.SyntaxError e) {
            throw new NpyFormatException(source, "header is not a valid Python dict literal: " + e.getMessage()
                    + " at position " + e.position + " of " + quoted(text.stripTrailing()));
        }
        if (!(literal instanceof Map<?, ?> map)) {
            throw new NpyFormatException(source, "header is not a Python dict: " + quoted(text));
        }
        if (!map.keySet().equals(KEYS)) {
            throw new NpyFormatException(source, "header keys must be exactly 'descr', 'fortran_order' and 'shape', found "
                    + PyLiteral.clip(List.copyOf(map.keySet()).toString()));
        }
        Object descrValue = map.get("descr");
        Object fortranValue = map.get("fortran_order");
        Object shapeValue = map.get("shape");

        if (!(fortranValue instanceof Boolean fortran)) {
            throw new NpyFormatException(source, "fortran_order must be True or False, found "
                    + PyLiteral.clip(PyLiteral.repr(fortranValue)));
        }
        String descr = descrText(descrValue, source);
        NpyDtype dtype = dtypeOf(descr, source);
        ByteOrder order = byteOrderOf(descr, dtype);
        long[] shape = shapeOf(shapeValue, source);
        long count = 1;
        boolean empty = false;
        for (long dim : shape) empty |= dim == 0;
        // With a zero dimension the array is empty whatever the other dimensions say (as in NumPy).
        for (int i = 0; i < shape.length && !empty; i++) {
            if (count > Long.MAX_VALUE / shape[i]) {
                throw new NpyFormatException(source, "shape " + PyLiteral.clip(shapeText(shape))
                        + " has more elements than a 64-bit count can hold (the header lies about the shape)");
            }
            count *= shape[i];
        }
        if (empty) count = 0;
        return new NpyHeader(dtype, order, fortran, shape, count, descr);
    }

    private static String descrText(Object v, String source) {
        if (v instanceof String s) return s;
        if (v instanceof PyLiteral.PyList) {
            throw new NpyFormatException(source, "structured (record) dtypes are not supported: descr is "
                    + PyLiteral.clip(PyLiteral.repr(v)) + "; save a plain numeric array");
        }
        throw new NpyFormatException(source, "descr must be a dtype string such as '<f4', found "
                + PyLiteral.clip(PyLiteral.repr(v)));
    }

    /**
     * NumPy's one-character type codes ({@code np.dtype('<d')} is float64), as {@code np.load} on Linux x64 reads
     * them ({@code 'l'} is 8 bytes there, and so are the pointer-sized {@code 'p'} and {@code 'n'}); {@code np.save}
     * itself always writes the {@code 'f8'} form.
     */
    private static final String CHAR_CODES =
            "e f2 f f4 d f8 b i1 B u1 h i2 H u2 i i4 I u4 l i8 L u8 q i8 Q u8 p i8 P u8 n i8 N u8 ? b1";

    /**
     * NumPy's type names, which {@code np.load} reads as a descr too ({@code np.dtype('float64')}, written by hand
     * or by other writers), each with the code NumPy 2 maps it to on Linux x64 ({@code 'long'}, {@code 'int'} and
     * {@code 'intp'} are int64 there). Only without a byte-order prefix: NumPy refuses {@code '<float64'}, and a
     * name is in the machine's order.
     */
    private static final Map<String, String> NAMES = Map.ofEntries(
            Map.entry("float16", "f2"), Map.entry("half", "f2"),
            Map.entry("float32", "f4"), Map.entry("single", "f4"),
            Map.entry("float64", "f8"), Map.entry("double", "f8"), Map.entry("float", "f8"),
            Map.entry("int8", "i1"), Map.entry("byte", "i1"),
            Map.entry("int16", "i2"), Map.entry("short", "i2"),
            Map.entry("int32", "i4"), Map.entry("intc", "i4"),
            Map.entry("int64", "i8"), Map.entry("int", "i8"), Map.entry("int_", "i8"), Map.entry("intp", "i8"),
            Map.entry("long", "i8"), Map.entry("longlong", "i8"),
            Map.entry("uint8", "u1"), Map.entry("ubyte", "u1"),
            Map.entry("uint16", "u2"), Map.entry("ushort", "u2"),
            Map.entry("uint32", "u4"), Map.entry("uintc", "u4"),
            Map.entry("uint64", "u8"), Map.entry("uint", "u8"), Map.entry("uintp", "u8"), Map.entry("ulong", "u8"),
            Map.entry("ulonglong", "u8"),
            Map.entry("bool", "b1"), Map.entry("bool_", "b1"));

    private static NpyDtype dtypeOf(String descr, String source) {
        NpyDtype named = NpyDtype.forCode(NAMES.getOrDefault(descr, ""));
        if (named != null) return named;
        String code = descr;
        if (!code.isEmpty() && "<>=|".indexOf(code.charAt(0)) >= 0) code = code.substring(1);
        if (code.length() == 1) {
            String[] pairs = CHAR_CODES.split(" ");
            for (int i = 0; i < pairs.length; i += 2) {
                if (pairs[i].equals(code)) code = pairs[i + 1];
            }
        }
        NpyDtype t = NpyDtype.forCode(code);
        if (t != null) return t;
        String kind = code.isEmpty() ? "" : code.substring(0, 1);
        String what = switch (kind) {
            case "O" -> "object arrays are not supported (they need pickle)";
            case "U", "S", "a" -> "string arrays are not supported";
            case "V" -> "void (raw bytes) arrays are not supported";
            case "c" -> "complex arrays are not supported";
            case "M", "m" -> "datetime arrays are not supported";
            default -> "dtype is not supported";
        };
        throw new NpyFormatException(source, what + " (descr " + quoted(descr) + "); supported: float16 '<f2', "
                + "float32 '<f4', float64 '<f8', int16 '<i2', int32 '<i4', int64 '<i8', uint16 '<u2', uint32 '<u4', "
                + "uint64 '<u8' (either byte order), int8 '|i1', uint8 '|u1', bool '|b1'", quoted(descr));
    }

    /**
     * The data's byte order: {@code '<'} little-endian, {@code '>'} big-endian, and for {@code '='}, {@code '|'} or
     * no prefix the machine's own order, as {@code np.load} takes them (one-byte types have no order).
     */
    private static ByteOrder byteOrderOf(String descr, NpyDtype t) {
        char c = descr.isEmpty() ? ' ' : descr.charAt(0);
        if (t.itemSize() == 1 || c == '<') return ByteOrder.LITTLE_ENDIAN;
        if (c == '>') return ByteOrder.BIG_ENDIAN;
        return ByteOrder.nativeOrder();
    }

    private static long[] shapeOf(Object v, String source) {
        if (!(v instanceof PyLiteral.PyTuple tuple)) {
            throw new NpyFormatException(source, "shape must be a tuple of integers, found "
                    + PyLiteral.clip(PyLiteral.repr(v)));
        }
        List<Object> items = tuple.items();
        long[] shape = new long[items.size()];
        for (int i = 0; i < shape.length; i++) {
            if (!(items.get(i) instanceof PyLiteral.PyInt dim)) {
                throw new NpyFormatException(source, "shape must be a tuple of integers, found "
                        + PyLiteral.clip(PyLiteral.repr(v)));
            }
            if (dim.overflow()) {
                throw new NpyFormatException(source, "dimension " + PyLiteral.clip(dim.text()) + " of the shape is too large"
                        + " (the header lies about the shape)");
            }
            if (dim.value() < 0) {
                throw new NpyFormatException(source, "negative dimension " + dim.value() + " in shape "
                        + PyLiteral.clip(PyLiteral.repr(v)));
            }
            shape[i] = dim.value();
        }
        return shape;
    }

    static String quoted(String s) {
        StringBuilder b = new StringBuilder("'");
        int limit = Math.min(s.length(), 120);
        for (int i = 0; i < limit; i++) {
            char c = s.charAt(i);
            if (c >= 0x20 && c < 0x7f) b.append(c);
            else if (c == '\n') b.append("\\n");
            else b.append(String.format("\\u%04x", (int) c));
        }
        if (s.length() > limit) b.append("...");
        return b.append('\'').toString();
    }
}
