package org.sylva.gpu;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A static check of the seed's loop rule on kernel source: no {@code while} or {@code do} loop, and
 * every {@code for} loop declares its counter, tests that counter against a bound, and steps it
 * ({@code i++}, {@code i--}, {@code i += s}, {@code i -= s}). A loop that runs until a flag clears
 * cannot be written in that shape. Returns the violations (empty when the source obeys).
 */
final class KernelLoopRule {
    private KernelLoopRule() {
    }

    private static final Pattern WHILE = Pattern.compile("\\b(while|do)\\b");
    private static final Pattern FOR = Pattern.compile("\\bfor\\s*\\(");
    private static final Pattern INIT = Pattern.compile("\\s*(?:const\\s+)?(?:int|long|idx_t)\\s+(\\w+)\\s*=.+");

    static List<String> violations(String source) {
        String s = source.replaceAll("(?s)/\\*.*?\\*/", " ").replaceAll("//[^\\n]*", " ");
        List<String> v = new ArrayList<>();
        Matcher w = WHILE.matcher(s);
        while (w.find()) v.add("a '" + w.group(1) + "' loop at offset " + w.start());
        Matcher f = FOR.matcher(s);
        while (f.find()) {
            int open = f.end();
            int depth = 1, i = open;
            for (; i < s.length() && depth > 0; i++) {
                if (s.charAt(i) == '(') depth++;
                else if (s.charAt(i) == ')') depth--;
            }
            String header = s.substring(open, i - 1);
            String[] parts = header.split(";", -1);
            if (parts.length != 3) {
                v.add("for (" + header + "): not init; condition; step");
                continue;
            }
            Matcher init = INIT.matcher(parts[0]);
            if (!init.matches()) {
                v.add("for (" + header + "): no counter declared");
                continue;
            }
            String c = Pattern.quote(init.group(1));
            if (!parts[1].trim().matches(c + "\\s*(<|<=|>|>=)\\s*[^<>=].*")) {
                v.add("for (" + header + "): the condition does not bound the counter " + init.group(1));
            }
            if (!parts[2].trim().matches(c + "\\s*(\\+\\+|--|\\+=\\s*\\S.*|-=\\s*\\S.*)")) {
                v.add("for (" + header + "): the step does not move the counter " + init.group(1));
            }
        }
        return v;
    }
}
