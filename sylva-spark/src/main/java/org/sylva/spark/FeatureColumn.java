package org.sylva.spark;

import java.io.Serializable;
import java.util.List;

import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.linalg.VectorUDT;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.NumericType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.sylva.data.InvalidInputException;

/**
 * Reads a points column: a Spark ML vector ({@code VectorUDT}) or an array of numbers per row, as float64.
 * Every refusal names the row, as the caller names it ({@code "row 17"}, {@code "row 3 of partition 2"}), and the
 * column: a null, a non-finite coordinate, a row whose length differs from the first row's.
 *
 * <pre>{@code
 * FeatureColumn col = FeatureColumn.of(df.schema(), "features");
 * double[] x = col.read(row, 17);
 * }</pre>
 */
final class FeatureColumn implements Serializable {
    private static final long serialVersionUID = 1L;

    private final String name;
    private final int index;
    private final boolean vector;

    private FeatureColumn(String name, int index, boolean vector) {
        this.name = name;
        this.index = index;
        this.vector = vector;
    }

    /** The column {@code name} of {@code schema}, refused unless it is a vector or an array of numbers. */
    static FeatureColumn of(StructType schema, String name) {
        int i = fieldIndex(schema, name);
        DataType t = schema.fields()[i].dataType();
        if (t instanceof VectorUDT) return new FeatureColumn(name, i, true);
        if (t instanceof ArrayType a && a.elementType() instanceof NumericType) return new FeatureColumn(name, i, false);
        if (t instanceof org.apache.spark.mllib.linalg.VectorUDT) {
            throw new InvalidInputException("column '" + name + "' holds the old org.apache.spark.mllib vectors; expected "
                    + "org.apache.spark.ml vectors or an array of numbers (MLUtils.convertVectorColumnsToML converts them)");
        }
        throw new InvalidInputException("column '" + name + "' is " + t.simpleString()
                + "; expected a vector or an array of numbers");
    }

    /**
     * The position of {@code name} in {@code schema}, with a clear error when it is missing. Names are matched
     * exactly, as Spark ML's own estimators match an input column ({@code schema.apply(name)}), whatever
     * {@code spark.sql.caseSensitive} says; a column that differs only in case is named in the refusal.
     */
    static int fieldIndex(StructType schema, String name) {
        for (int i = 0; i < schema.fields().length; i++) {
            if (schema.fields()[i].name().equals(name)) return i;
        }
        StringBuilder sameLetters = new StringBuilder();
        for (StructField f : schema.fields()) {
            if (name != null && f.name().equalsIgnoreCase(name)) {
                sameLetters.append(sameLetters.isEmpty() ? "" : ", ").append('\'').append(f.name()).append('\'');
            }
        }
        String hint = sameLetters.isEmpty() ? ""
                : " (column names are matched exactly, case included; did you mean " + sameLetters + "?)";
        throw new InvalidInputException("no column '" + name + "' in " + schema.simpleString() + hint);
    }

    /**
     * Whether {@code schema} has a column {@code name}, as Spark resolves names: regardless of case unless the
     * session sets {@code spark.sql.caseSensitive} (else an output {@code LABEL} beside an input {@code label} passes
     * here and Spark then finds the reference ambiguous).
     */
    static boolean has(StructType schema, String name) {
        boolean caseSensitive = org.apache.spark.sql.internal.SQLConf.get().caseSensitiveAnalysis();
        for (StructField f : schema.fields()) {
            if (caseSensitive ? f.name().equals(name) : f.name().equalsIgnoreCase(name)) return true;
        }
        return false;
    }

    /**
     * The schema with a new column appended, refused when the name is taken; the refusal names {@code param}, the
     * param that names the column, so a table that already has, say, a {@code label} column can be given another.
     */
    static StructType append(StructType schema, String name, DataType type, String param) {
        if (name == null || name.isBlank()) {
            throw new InvalidInputException("an output column needs a name; got " + (name == null ? "null" : "'" + name
                    + "'") + " (param " + param + ")");
        }
        if (has(schema, name)) {
            throw new InvalidInputException("output column '" + name + "' already exists (param " + param
                    + " names another)");
        }
        return schema.add(DataTypes.createStructField(name, type, false));
    }

    /** The schema with the three outputs of a fit appended: label (int), probability and outlier score (double). */
    static StructType appendFitOutputs(StructType schema, String label, String probability, String outlierScore) {
        StructType out = append(schema, label, DataTypes.IntegerType, "labelCol");
        out = append(out, probability, DataTypes.DoubleType, "probabilityCol");
        return append(out, outlierScore, DataTypes.DoubleType, "outlierScoreCol");
    }

    /** {@code row} with point {@code i}'s label, probability and outlier score of {@code r} appended. */
    static org.apache.spark.sql.Row withFitOutputs(org.apache.spark.sql.Row row, int[] labels, double[] probabilities,
                                                   double[] outlierScores, int i) {
        Object[] values = new Object[row.length() + 3];
        for (int j = 0; j < row.length(); j++) values[j] = row.get(j);
        values[row.length()] = labels[i];
        values[row.length() + 1] = probabilities[i];
        values[row.length() + 2] = outlierScores[i];
        return org.apache.spark.sql.RowFactory.create(values);
    }

    String name() {
        return name;
    }

    int index() {
        return index;
    }

    /** The coordinates of {@code row} (dataset position {@code position}), as {@link #read(Row, String)}. */
    double[] read(Row row, long position) {
        return read(row, "row " + position);
    }

    /**
     * The coordinates of {@code row}, all finite and within {@code +-1e150}
     * ({@link org.sylva.hdbscan.Hdbscan#MAX_ABS_COORDINATE}); {@code where} names the row in a refusal ({@code "row 17"}).
     */
    double[] read(Row row, String where) {
        if (row.isNullAt(index)) throw new InvalidInputException(where + ": column '" + name + "' is null");
        double[] x;
        if (vector) {
            x = ((Vector) row.get(index)).toArray();
        } else {
            List<Object> values = row.getList(index);
            x = new double[values.size()];
            for (int j = 0; j < x.length; j++) {
                Object v = values.get(j);
                if (v == null) {
                    throw new InvalidInputException(where + ": column '" + name + "' has a null at index " + j);
                }
                x[j] = ((Number) v).doubleValue();
            }
        }
        for (int j = 0; j < x.length; j++) {
            if (!Double.isFinite(x[j])) {
                throw new InvalidInputException(where + ": column '" + name + "' holds " + x[j]
                        + " at index " + j + "; every coordinate must be finite");
            }
            if (Math.abs(x[j]) > org.sylva.hdbscan.Hdbscan.MAX_ABS_COORDINATE) {
                throw new InvalidInputException(where + ": column '" + name + "' holds " + x[j] + " at index " + j
                        + ", beyond +-1e150: its squared distances would overflow");
            }
        }
        return x;
    }

    /**
     * {@link #read(Row, String)}'s coordinates of {@code row}, or its refusal as a string without the row's name
     * (a task that reads never fails; the driver, which knows the row's position, names it: {@link #refusal}).
     */
    static Object readOrRefusal(FeatureColumn fc, Row row) {
        try {
            return fc.read(row, "");
        } catch (InvalidInputException e) {
            return e.getMessage();
        }
    }

    /** The refusal {@link #readOrRefusal} returned for the row at dataset position {@code position}. */
    static InvalidInputException refusal(String unnamed, long position) {
        return new InvalidInputException("row " + position + unnamed);
    }

    /** Packs rows into one row-major array, refusing an empty list or rows of different lengths. */
    static double[] pack(List<double[]> rows, String name) {
        if (rows.isEmpty()) throw new InvalidInputException("column '" + name + "': the dataset has no rows");
        int d = rows.get(0).length;
        checkWidth(rows.get(0), d, 0, name);   // an empty row 0, before the allocation
        double[] out = new double[Math.multiplyExact(rows.size(), d)];
        for (int i = 0; i < rows.size(); i++) {
            double[] r = rows.get(i);
            checkWidth(r, d, i, name);
            System.arraycopy(r, 0, out, i * d, d);
        }
        return out;
    }

    /**
     * Refuses row {@code position} when its {@code row} is empty or has another number of values than row 0's
     * {@code d}: a caller that walks the rows calls it as it goes, so that the first bad row in dataset order is the
     * one named, whatever makes it bad.
     */
    static void checkWidth(double[] row, int d, long position, String name) {
        if (row.length == 0) throw new InvalidInputException("row " + position + ": column '" + name + "' is empty");
        if (row.length != d) {
            throw new InvalidInputException("row " + position + ": column '" + name + "' has " + row.length
                    + " values, row 0 has " + d);
        }
    }
}
