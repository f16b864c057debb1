package org.sylva.io;

/**
 * The element types Sylva reads from and writes to {@code .npy} files, with their NumPy names and
 * item sizes. Anything else NumPy can store (object, string, complex, float128, structured
 * arrays, ...) is refused by {@link Npy#read}. Every type here converts to float64 exactly except
 * int64 and uint64 beyond 2^53; float16, int8, int16, uint16, uint8 and bool also convert to
 * float32 exactly. uint64 values beyond int64's range are refused when read.
 *
 * <pre>{@code
 * NpyDtype t = Npy.read(path).dtype();
 * if (!t.fitsFloat32()) System.err.println(t.numpyName() + " values may round in float32");
 * }</pre>
 */
public enum NpyDtype {
    FLOAT32("f4", 4, "float32"),
    FLOAT64("f8", 8, "float64"),
    INT32("i4", 4, "int32"),
    INT64("i8", 8, "int64"),
    UINT8("u1", 1, "uint8"),
    BOOL("b1", 1, "bool"),
    // Read only (raw acquisition data); Sylva writes none of these itself. Declared last: the ordinals
    // of the types above stay as they were.
    INT8("i1", 1, "int8"),
    INT16("i2", 2, "int16"),
    UINT16("u2", 2, "uint16"),
    FLOAT16("f2", 2, "float16"),
    /** Held as long values. */
    UINT32("u4", 4, "uint32"),
    /** Held as long values: a file with a value beyond 2^63 - 1 is refused when read. */
    UINT64("u8", 8, "uint64");

    private final String code;
    private final int itemSize;
    private final String numpyName;

    NpyDtype(String code, int itemSize, String numpyName) {
        this.code = code;
        this.itemSize = itemSize;
        this.numpyName = numpyName;
    }

    /** Bytes per element in the file. */
    public int itemSize() {
        return itemSize;
    }

    /** NumPy's name of the type, e.g. {@code "float32"}. */
    public String numpyName() {
        return numpyName;
    }

    /**
     * True when float32 holds every value of this type exactly (float16, float32, int8, int16, uint8,
     * uint16, bool); false for float64, int32 and uint32 (beyond 2^24), int64 and uint64.
     */
    public boolean fitsFloat32() {
        return switch (this) {
            case FLOAT16, FLOAT32, INT8, INT16, UINT8, UINT16, BOOL -> true;
            case FLOAT64, INT32, INT64, UINT32, UINT64 -> false;
        };
    }

    /** The type and size part of a descr, e.g. {@code "f4"}. */
    String code() {
        return code;
    }

    /** The descr Sylva writes: little-endian for multi-byte types, {@code '|'} for single bytes. */
    String littleEndianDescr() {
        return (itemSize == 1 ? "|" : "<") + code;
    }

    /** Looks up a type code such as {@code "f4"}; null when unknown. */
    static NpyDtype forCode(String code) {
        for (NpyDtype t : values()) {
            if (t.code.equals(code)) return t;
        }
        return null;
    }
}
