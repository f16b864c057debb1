package org.sylva.spark;

import com.esotericsoftware.kryo.Kryo;
import java.util.List;
import org.apache.spark.serializer.KryoRegistrator;

/**
 * Registers with Kryo every class Sylva's Spark jobs send through Spark's serializer (broadcasts, task results,
 * the grouped fits' shuffled keys and rows), for clusters that set {@code spark.kryo.registrationRequired=true}:
 * there Kryo refuses any class not registered, and without this registrator every fit fails with "Class is not
 * registered". Under Kryo without that setting, and under Java serialization, it is not needed. Registrators add
 * up: give it beside the application's own, comma-separated.
 *
 * <pre>{@code
 * spark-submit --conf spark.serializer=org.apache.spark.serializer.KryoSerializer \
 *     --conf spark.kryo.registrationRequired=true \
 *     --conf spark.kryo.registrator=org.sylva.spark.SylvaKryoRegistrator ...
 * }</pre>
 */
public final class SylvaKryoRegistrator implements KryoRegistrator {
    /**
     * The classes registered, in a fixed order (Kryo numbers them in the order given; the driver and the executors
     * must agree): what a fit and its model send (broadcasts, task results), then what the per-group fits shuffle,
     * the key and each row with its schema: the row classes and the column types a row's schema can hold (Spark
     * registers some of them itself, the struct type among them; registering one again is harmless). A column of a type not listed here (a
     * user-defined type other than ml's vectors, say) in a per-group fit's dataset still needs the application's
     * own registration, or selecting the columns needed before the fit.
     */
    static List<Class<?>> classes() {
        return List.of(FitData.class, RoundMessage.class, TaskResults.Lists.class, TaskResults.Edges.class,
                GroupKey.Bytes.class, GroupKey.Struct.class, Object[].class, Double[].class,
                org.apache.spark.sql.catalyst.expressions.GenericRowWithSchema.class,
                org.apache.spark.sql.catalyst.expressions.GenericRow.class,
                org.apache.spark.ml.linalg.DenseVector.class, org.apache.spark.ml.linalg.SparseVector.class,
                org.apache.spark.ml.linalg.VectorUDT.class,
                sqlType("ArrayType"), sqlType("MapType"), sqlType("DecimalType"), sqlType("StringType"),
                sqlType("BinaryType$"), sqlType("BooleanType$"), sqlType("ByteType$"), sqlType("ShortType$"),
                sqlType("IntegerType$"), sqlType("LongType$"), sqlType("FloatType$"), sqlType("DoubleType$"),
                sqlType("StringType$"), sqlType("DateType$"), sqlType("TimestampType$"), sqlType("TimestampNTZType$"),
                sqlType("NullType$"),
                // arrays Spark keeps boxed in a row, nested arrays, the newer time types, the key of a list key
                Float[].class, Integer[].class, Long[].class, Short[].class, Byte[].class, Boolean[].class,
                String[].class, java.math.BigDecimal[].class, java.sql.Date[].class, java.sql.Timestamp[].class,
                java.time.LocalDateTime.class, java.time.LocalDate.class, java.time.Instant.class,
                java.time.Duration.class, java.time.Period.class, java.util.ArrayList.class,
                sqlType("DayTimeIntervalType"), sqlType("YearMonthIntervalType"),
                classNamed("scala.collection.mutable.ArraySeq"), classNamed("scala.collection.mutable.ArraySeq$ofRef"),
                classNamed("[Lscala.collection.mutable.ArraySeq;"),
                // a map key's entries
                java.util.HashMap.class);
    }

    /** A class of Spark's SQL types by its name in {@code org.apache.spark.sql.types} (Scala objects end in $). */
    private static Class<?> sqlType(String name) {
        return classNamed("org.apache.spark.sql.types." + name);
    }

    /** A class by name: a Scala object's class has no Java name to write. */
    private static Class<?> classNamed(String name) {
        try {
            return Class.forName(name, false, SylvaKryoRegistrator.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("Kryo registration: no class " + name, e);
        }
    }

    @Override
    public void registerClasses(Kryo kryo) {
        for (Class<?> c : classes()) kryo.register(c);
    }
}
