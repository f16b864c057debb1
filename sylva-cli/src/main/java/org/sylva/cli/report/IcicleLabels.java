package org.sylva.cli.report;

import java.util.ArrayList;
import java.util.List;

/**
 * The label numbers of the selected clusters in the icicle plot: inside the top of a wide bar, else
 * just below it; a label that would overlap one already placed is left out.
 */
final class IcicleLabels {
    private final List<double[]> boxes = new ArrayList<>();
    private final StringBuilder out = new StringBuilder();
    /** Lowest baseline a label may have (plus 3 pixels). */
    private final double floor;

    IcicleLabels(double floor) {
        this.floor = floor;
    }

    /**
     * Places {@code label} for a bar centred at {@code cx}, {@code w} wide at its top, from {@code yTop}
     * to {@code yBot}.
     */
    void place(int label, double cx, double w, double yTop, double yBot) {
        String text = Integer.toString(label);
        double half = 4.5 * text.length() + 3;
        double y = (w >= 2 * half + 4 && yBot - yTop >= 18) ? yTop + 15 : Math.min(yBot + 15, floor - 3);
        double[] box = {cx - half, y - 12, cx + half, y + 3};
        for (double[] b : boxes) {
            if (box[0] < b[2] && b[0] < box[2] && box[1] < b[3] && b[1] < box[3]) return;
        }
        boxes.add(box);
        out.append("<text x=\"");
        Fmt.px(out, cx).append("\" y=\"");
        Fmt.px(out, y).append("\" stroke=\"#fff\" stroke-width=\"3\" paint-order=\"stroke\" style=\"fill:")
                .append(Palette.dark(label)).append("\">").append(text).append("</text>");
    }

    /** The group of the labels placed so far. */
    void appendTo(StringBuilder sb) {
        sb.append("<g class=\"cluster-labels\" font-size=\"13\" font-weight=\"700\" text-anchor=\"middle\">")
                .append(out).append("</g>\n");
    }
}
