package org.sylva.spark;

import org.apache.spark.ml.util.DefaultParamsReader;
import org.apache.spark.ml.util.DefaultParamsReader$;

/**
 * Spark ML's params reader that checks the class the directory holds before anything else: Spark's own reader
 * instantiates whatever class the metadata names, so another stage's directory would come back as a
 * {@code ClassCastException} or a missing constructor. Here it is refused naming both classes.
 *
 * <pre>{@code
 * SylvaBallTrees stage = new CheckedParamsReader<>(SylvaBallTrees.class).load(path);
 * }</pre>
 */
final class CheckedParamsReader<T> extends DefaultParamsReader<T> {
    private final Class<T> type;

    CheckedParamsReader(Class<T> type) {
        this.type = type;
    }

    @Override
    public T load(String path) {
        DefaultParamsReader$.MODULE$.loadMetadata(path, sparkSession(), type.getName());
        return super.load(path);
    }
}
