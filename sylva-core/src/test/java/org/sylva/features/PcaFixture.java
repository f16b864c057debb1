package org.sylva.features;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One input with scikit-learn's PCA of it, as {@code scripts/pca-fixtures.py} wrote it (the layout is
 * described there): read from the test resources {@code org/sylva/features/pca-NAME.txt}.
 *
 * @param name               the case
 * @param float32            whether the input is float32 ({@code x} then holds float32 values exactly)
 * @param n                  rows
 * @param d                  columns
 * @param k                  components fitted
 * @param x                  the input, row-major {@code n x d}
 * @param mean               {@code mean_}
 * @param components         {@code components_}, row-major {@code k x d}
 * @param explainedVariance  {@code explained_variance_}
 * @param ratio              {@code explained_variance_ratio_}
 * @param totalVariance      the sum of the column variances ({@code ddof=1})
 * @param scores             {@code transform(x)}, row-major {@code n x k}
 */
record PcaFixture(String name, boolean float32, int n, int d, int k, double[] x, double[] mean, double[] components,
        double[] explainedVariance, double[] ratio, double totalVariance, double[] scores) {

    static PcaFixture load(String name) {
        String resource = "pca-" + name + ".txt";
        Map<String, String> keys = new HashMap<>();
        Map<String, List<Double>> arrays = new HashMap<>();
        try (InputStream in = PcaFixture.class.getResourceAsStream(resource)) {
            if (in == null) throw new IllegalStateException("missing test resource " + resource);
            BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            List<Double> current = null;
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                if (line.isBlank() || line.startsWith("#")) continue;
                String[] t = line.trim().split("\\s+");
                if (Character.isLetter(t[0].charAt(0)) && t.length == 1) { // a block's name
                    current = new ArrayList<>();
                    arrays.put(t[0], current);
                } else if (current == null) { // "key value" before the first block
                    keys.put(t[0], t[1]);
                } else {
                    for (String v : t) current.add(Double.parseDouble(v));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new PcaFixture(keys.get("name"), keys.get("dtype").equals("float32"), Integer.parseInt(keys.get("n")),
                Integer.parseInt(keys.get("d")), Integer.parseInt(keys.get("k")), array(arrays, "x"),
                array(arrays, "mean"), array(arrays, "components"), array(arrays, "explained_variance"),
                array(arrays, "explained_variance_ratio"), array(arrays, "total_variance")[0],
                array(arrays, "scores"));
    }

    private static double[] array(Map<String, List<Double>> arrays, String name) {
        List<Double> l = arrays.get(name);
        if (l == null) throw new IllegalStateException("fixture lacks " + name);
        double[] a = new double[l.size()];
        for (int i = 0; i < a.length; i++) a[i] = l.get(i);
        return a;
    }

    /** The input as float32 (exact for a float32 case). */
    float[] xFloat32() {
        float[] f = new float[x.length];
        for (int i = 0; i < f.length; i++) f[i] = (float) x[i];
        return f;
    }

    /** Fits as Sylva would read this input: float32 input as float32, float64 as float64. */
    PrincipalComponents fit(int components) {
        return float32 ? PrincipalComponents.fit(xFloat32(), n, d, components)
                : PrincipalComponents.fit(x, n, d, components);
    }
}
