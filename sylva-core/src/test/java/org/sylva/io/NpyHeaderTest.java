package org.sylva.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sylva.io.NpyBytes.dict;

import java.nio.ByteOrder;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The descr strings {@link NpyHeader#parse} takes and refuses, as NumPy 2's {@code np.load} does on Linux x64. */
class NpyHeaderTest {
    private static NpyHeader parse(String descr) {
        return NpyHeader.parse(dict(descr, false, "(2,)"), 1, "x.npy");
    }

    /**
     * Every type name {@code np.dtype} maps to a supported type, with what NumPy 2.4 maps it to
     * ({@code np.dtype('long')} is int64 on Linux x64): np.load reads a header whose descr is such a name.
     */
    @Test
    void numpyTypeNamesReadAsNumpyMapsThem() {
        String[][] names = {
            {"float16", "FLOAT16"}, {"half", "FLOAT16"}, {"float32", "FLOAT32"}, {"single", "FLOAT32"},
            {"float64", "FLOAT64"}, {"double", "FLOAT64"}, {"float", "FLOAT64"},
            {"int8", "INT8"}, {"byte", "INT8"}, {"int16", "INT16"}, {"short", "INT16"}, {"int32", "INT32"},
            {"intc", "INT32"}, {"int64", "INT64"}, {"int", "INT64"}, {"int_", "INT64"}, {"intp", "INT64"},
            {"long", "INT64"}, {"longlong", "INT64"},
            {"uint8", "UINT8"}, {"ubyte", "UINT8"}, {"uint16", "UINT16"}, {"ushort", "UINT16"}, {"uint32", "UINT32"},
            {"uintc", "UINT32"}, {"uint64", "UINT64"}, {"uint", "UINT64"}, {"uintp", "UINT64"}, {"ulong", "UINT64"},
            {"ulonglong", "UINT64"}, {"bool", "BOOL"}, {"bool_", "BOOL"}};
        for (String[] n : names) {
            NpyHeader h = parse(n[0]);
            assertEquals(NpyDtype.valueOf(n[1]), h.dtype(), n[0]);
            // a name has no byte-order prefix: the machine's order, as NumPy takes it
            assertEquals(h.dtype().itemSize() == 1 ? ByteOrder.LITTLE_ENDIAN : ByteOrder.nativeOrder(), h.order(), n[0]);
            assertEquals(n[0], h.descr());
        }
    }

    /** The pointer-sized codes: 'p' and 'n' are int64, 'P' and 'N' uint64, with or without a byte-order prefix. */
    @Test
    void pointerSizedCodes() {
        for (String prefix : new String[] {"", "<", ">", "=", "|"}) {
            assertEquals(NpyDtype.INT64, parse(prefix + "p").dtype(), prefix + "p");
            assertEquals(NpyDtype.INT64, parse(prefix + "n").dtype(), prefix + "n");
            assertEquals(NpyDtype.UINT64, parse(prefix + "P").dtype(), prefix + "P");
            assertEquals(NpyDtype.UINT64, parse(prefix + "N").dtype(), prefix + "N");
        }
        assertEquals(ByteOrder.BIG_ENDIAN, parse(">p").order());
        assertEquals(ByteOrder.LITTLE_ENDIAN, parse("<N").order());
    }

    /** What NumPy refuses or maps to an unsupported type stays refused: names with a prefix, removed aliases. */
    @Test
    void namesNumpyRefusesOrSylvaDoesNotSupport() {
        for (String descr : new String[] {"<float64", ">int32", "|bool", "=double", "float64 ", "Float64", "bool8",
            "int0", "float_", "float128", "longdouble", "complex", "object", "str", "datetime64"}) {
            assertThrows(NpyFormatException.class, () -> parse(descr), descr);
        }
    }

    /** The refusal lists the supported types by name and descr; each of those names and descrs is read. */
    @Test
    void refusalListsOnlyWhatIsRead() {
        String message = assertThrows(NpyFormatException.class, () -> parse("<f16")).getMessage();
        Matcher m = Pattern.compile("(\\w+) '([<|]\\w+)'").matcher(message.substring(message.indexOf("supported:")));
        int listed = 0;
        for (; m.find(); listed++) {
            NpyDtype t = parse(m.group(2)).dtype();
            assertEquals(t, parse(m.group(1)).dtype(), m.group(0));
            assertEquals(m.group(1), t.numpyName(), m.group(0));
        }
        assertEquals(NpyDtype.values().length, listed, message);
        assertTrue(message.startsWith("x.npy: dtype is not supported (descr '<f16')"), message);
    }
}
