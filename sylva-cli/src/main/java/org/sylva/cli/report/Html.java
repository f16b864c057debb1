package org.sylva.cli.report;

import java.util.Map;

/**
 * HTML pieces shared by both reports: escaping, the page frame (head with inline CSS and a
 * Content-Security-Policy that forbids every network fetch and every script), key/value tables and
 * the timestamp-free footer.
 */
final class Html {
    private Html() {
    }

    /**
     * Escapes text for element content and double- or single-quoted attribute values. Control
     * characters other than tab, newline and carriage return (not allowed in HTML), the C1 controls, unpaired
     * surrogates and the bidirectional controls (an override in a file name would show {@code invoice.jpy} for
     * {@code invoice.ypj} reversed, in the title and the parameters) become U+FFFD.
     */
    static String esc(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> sb.append("&amp;");
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '"' -> sb.append("&quot;");
                case '\'' -> sb.append("&#39;");
                default -> {
                    if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || (c >= 0x7f && c <= 0x9f) || bidiControl(c)) {
                        sb.append('\uFFFD');
                    } else if (Character.isHighSurrogate(c) && i + 1 < s.length()
                            && Character.isLowSurrogate(s.charAt(i + 1))) {
                        sb.append(c).append(s.charAt(++i));
                    } else if (Character.isSurrogate(c)) {
                        sb.append('\uFFFD');
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.toString();
    }

    /** The characters that change the direction of the text after them: marks, embeddings, overrides, isolates. */
    static boolean bidiControl(char c) {
        return c == 0x061c || c == 0x200e || c == 0x200f || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);
    }

    private static final String CSS = """
            :root{color-scheme:light}
            body{margin:0;background:#f6f7f9;color:#1d232b;font:15px/1.45 system-ui,-apple-system,"Segoe UI",\
            "DejaVu Sans","Liberation Sans",Arial,sans-serif}
            main{max-width:1240px;margin:0 auto;padding:24px 28px 8px}
            h1{font-size:26px;margin:0 0 4px;font-weight:650;overflow-wrap:anywhere}
            h2{font-size:19px;margin:0 0 10px;font-weight:620}
            .summary{margin:0 0 18px;color:#45505c}
            section{background:#fff;border:1px solid #dde2e8;border-radius:8px;padding:16px 20px;margin:0 0 18px}
            figure{margin:0}
            figcaption{color:#45505c;font-size:13.5px;margin-top:6px;max-width:1100px}
            svg.plot{display:block;max-width:100%;height:auto;font-family:inherit}
            svg text{fill:#1d232b}
            table{border-collapse:collapse;font-size:14px;font-variant-numeric:tabular-nums}
            th,td{padding:4px 12px;border-bottom:1px solid #e6e9ee;text-align:right;vertical-align:top}
            th{background:#f0f2f5;font-weight:600}
            td.key,th.key{text-align:left}
            td.val{text-align:left;font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:13px;\
            overflow-wrap:anywhere;max-width:760px}
            tfoot td{font-weight:600;border-bottom:none}
            .swatch{display:inline-block;width:12px;height:12px;border-radius:2px;margin-right:7px;\
            vertical-align:-1px;border:1px solid rgba(0,0,0,.25)}
            .bar{display:inline-block;height:10px;background:#7a8ca3;border-radius:2px;vertical-align:0}
            .cols{display:flex;flex-wrap:wrap;gap:18px}
            .cols>section{flex:1 1 420px;margin:0 0 18px}
            .note{color:#45505c;font-size:13.5px}
            footer{max-width:1240px;margin:0 auto;padding:6px 28px 28px;color:#5b6673;font-size:13px}
            """;

    /** Opens the document: doctype, head (title, CSS, CSP), body, main and the h1 heading. */
    static void open(StringBuilder sb, String title) {
        sb.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
        sb.append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
        // the report must never touch the network or run code: the browser enforces it
        sb.append("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
                + "style-src 'unsafe-inline'; img-src data:\">\n");
        sb.append("<meta name=\"generator\" content=\"Sylva\">\n");
        sb.append("<title>").append(esc(title)).append("</title>\n<style>\n").append(CSS).append("</style>\n");
        sb.append("</head>\n<body>\n<main>\n<h1 id=\"title\">").append(esc(title)).append("</h1>\n");
    }

    /** Closes main, writes the footer and closes the document. */
    static void close(StringBuilder sb, String sylvaVersion) {
        sb.append("</main>\n<footer id=\"footer\">Sylva ").append(esc(sylvaVersion))
                .append(" \u00b7 one self-contained file: no scripts, no network; no timestamp, so the same input")
                .append(" gives the same bytes but for the timings.</footer>\n</body>\n</html>\n");
    }

    /** A two-column table (name, value) with the given id; "none" when the map is empty. */
    static void keyValueTable(StringBuilder sb, String id, String keyHeader, String valueHeader, Map<String, String> kv) {
        if (kv.isEmpty()) {
            sb.append("<p class=\"note\" id=\"").append(id).append("\">none recorded</p>\n");
            return;
        }
        sb.append("<table id=\"").append(id).append("\">\n<thead><tr><th class=\"key\">").append(esc(keyHeader))
                .append("</th><th class=\"key\">").append(esc(valueHeader)).append("</th></tr></thead>\n<tbody>\n");
        for (var e : kv.entrySet()) {
            sb.append("<tr><td class=\"key\">").append(esc(e.getKey())).append("</td><td class=\"val\">")
                    .append(esc(e.getValue())).append("</td></tr>\n");
        }
        sb.append("</tbody>\n</table>\n");
    }

    /** The stage timing table: stage, seconds, share of the total as a bar; total in the footer row. */
    static void timingTable(StringBuilder sb, Map<String, Double> stages) {
        if (stages.isEmpty()) {
            sb.append("<p class=\"note\" id=\"timings-table\">no timings recorded</p>\n");
            return;
        }
        double total = 0;
        for (double s : stages.values()) {
            if (Double.isFinite(s) && s > 0) total += s;
        }
        sb.append("<table id=\"timings-table\">\n<thead><tr><th class=\"key\">stage</th><th>time</th>")
                .append("<th class=\"key\">share</th></tr></thead>\n<tbody>\n");
        for (var e : stages.entrySet()) {
            double s = e.getValue();
            double share = total > 0 && Double.isFinite(s) && s > 0 ? s / total : 0;
            sb.append("<tr><td class=\"key\">").append(esc(e.getKey())).append("</td><td>")
                    .append(Fmt.seconds(s)).append("</td><td class=\"key\"><span class=\"bar\" style=\"width:")
                    .append(Fmt.fixed(240 * share, 1)).append("px\"></span> ")
                    .append(Fmt.fixed(100 * share, 1)).append(" %</td></tr>\n");
        }
        // the stages listed: reading the input and writing the outputs are not among them
        sb.append("</tbody>\n<tfoot><tr><td class=\"key\">these stages</td><td>").append(Fmt.seconds(total))
                .append("</td><td></td></tr></tfoot>\n</table>\n");
    }
}
