package org.sylva.cli.report;

/**
 * Cluster colours: a fixed function of the label, so label 3 has the same colour in every report.
 * Labels 0-5 get the Okabe-Ito colours (blue, orange, bluish green, vermillion, reddish purple, sky
 * blue), chosen to stay distinguishable under the common colour-vision deficiencies; labels 6-11 take
 * Paul Tol's muted indigo, olive, wine, teal, sand and rose, after which the twelve repeat (the label
 * number is always printed next to a colour, so a repeat is never ambiguous). Noise is a light grey
 * no cluster uses.
 */
final class Palette {
    private static final String[] COLOURS = {
        "#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9",
        "#332288", "#999933", "#882255", "#44AA99", "#DDCC77", "#CC6677",
    };

    /** Colour of noise points and unclustered rows. */
    static final String NOISE = "#B4B4B4";
    /** Fill of condensed-tree clusters that were not selected. */
    static final String UNSELECTED_FILL = "#D3D9E0";
    /** Outline of condensed-tree clusters that were not selected. */
    static final String UNSELECTED_STROKE = "#8C98A6";

    private Palette() {
    }

    /** Number of distinct colours before they repeat. */
    static int size() {
        return COLOURS.length;
    }

    /** Colour of label {@code label >= 0}; negative labels get {@link #NOISE}. */
    static String colour(int label) {
        return label < 0 ? NOISE : COLOURS[label % COLOURS.length];
    }

    /** A darker shade (70 % of each channel) of {@link #colour}, for outlines and text. */
    static String dark(int label) {
        String c = colour(label);
        int rgb = Integer.parseInt(c.substring(1), 16);
        int r = (rgb >> 16 & 0xff) * 7 / 10, g = (rgb >> 8 & 0xff) * 7 / 10, b = (rgb & 0xff) * 7 / 10;
        return String.format(java.util.Locale.ROOT, "#%02X%02X%02X", r, g, b);
    }
}
