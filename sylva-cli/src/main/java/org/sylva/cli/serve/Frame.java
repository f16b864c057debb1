package org.sylva.cli.serve;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One message of the engine protocol, in either direction: a kind (the command of a request, such as
 * {@code hdbscan}; {@code ok}, {@code error} or {@code cancelled} for a response; {@code hello} and
 * {@code cancel}), parameters (a JSON object) and named arrays. {@link FrameReader} and
 * {@link FrameWriter} give its bytes; {@code docs/engine-protocol.md} describes them.
 *
 * <pre>{@code
 * Frame request = new Frame("partition", Map.of("level", 3), List.of(WireArray.of("points", xyz, n, 3)));
 * WireArray points = request.array("points");
 * }</pre>
 *
 * @param kind   what the message is
 * @param params its parameters, in order (values: null, Boolean, Long, Double, String, List, Map)
 * @param arrays its arrays, in order, names unique
 */
public record Frame(String kind, Map<String, Object> params, List<WireArray> arrays) {
    public Frame {
        Objects.requireNonNull(kind, "kind");
        params = Collections.unmodifiableMap(new LinkedHashMap<>(params));
        arrays = List.copyOf(arrays);
        for (int i = 0; i < arrays.size(); i++) {
            for (int j = 0; j < i; j++) {
                if (arrays.get(i).name().equals(arrays.get(j).name())) {
                    throw new IllegalArgumentException("two arrays named " + arrays.get(i).name());
                }
            }
        }
    }

    /** A frame with parameters and no arrays. */
    public Frame(String kind, Map<String, Object> params) {
        this(kind, params, List.of());
    }

    /** The array named {@code name}, or null. */
    public WireArray array(String name) {
        for (WireArray a : arrays) {
            if (a.name().equals(name)) return a;
        }
        return null;
    }

    @Override
    public String toString() {
        return kind + " " + params + " " + arrays;
    }
}
