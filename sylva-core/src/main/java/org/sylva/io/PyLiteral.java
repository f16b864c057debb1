package org.sylva.io;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict parser for the subset of Python literals that appears in {@code .npy} headers: dicts with
 * string keys, strings, integers, floats, {@code True}/{@code False}/{@code None}, tuples and lists.
 * It mirrors what {@code ast.literal_eval} accepts for those forms (including a single unary sign and
 * Python 2's {@code L} suffix on integers, which NumPy filters out for version 1.0/2.0 files).
 *
 * <p>It is iterative over the input and bounded in nesting depth, so no input can make it recurse
 * deeply or loop: each step consumes at least one character.
 */
final class PyLiteral {
    /** Deepest nesting accepted; real headers nest at most three levels (dict, list, tuple). */
    static final int MAX_DEPTH = 16;

    record PyTuple(List<Object> items) { }

    record PyList(List<Object> items) { }

    /** An integer literal; {@code overflow} is set when it does not fit a long (value is then meaningless). */
    record PyInt(long value, boolean overflow, String text) { }

    record PyFloat(String text) { }

    enum PyNone { NONE }

    /** Thrown for anything that is not a literal of the supported forms; {@code position} is a char index. */
    static final class SyntaxError extends Exception {
        private static final long serialVersionUID = 1L;
        final int position;

        SyntaxError(String message, int position) {
            super(message);
            this.position = position;
        }
    }

    private final String s;
    private final boolean allowLongSuffix;
    private int pos;

    private PyLiteral(String s, boolean allowLongSuffix) {
        this.s = s;
        this.allowLongSuffix = allowLongSuffix;
    }

    /** Parses one literal that must span the whole string (surrounding whitespace allowed). */
    static Object parse(String text, boolean allowLongSuffix) throws SyntaxError {
        PyLiteral p = new PyLiteral(text, allowLongSuffix);
        p.skipSpace();
        Object v = p.value(0);
        p.skipSpace();
        if (p.pos != text.length()) {
            throw new SyntaxError("unexpected " + p.describeHere() + " after the literal", p.pos);
        }
        return v;
    }

    /** Renders a parsed value back in Python syntax, for error messages. */
    static String repr(Object v) {
        StringBuilder b = new StringBuilder();
        repr(v, b, 0);
        return b.toString();
    }

    private static void repr(Object v, StringBuilder b, int depth) {
        if (b.length() > 200) return;
        switch (v) {
            case String str -> b.append('\'').append(str).append('\'');
            case Boolean bo -> b.append(bo ? "True" : "False");
            case PyNone n -> b.append("None");
            case PyInt i -> b.append(i.text());
            case PyFloat f -> b.append(f.text());
            case PyTuple t -> {
                b.append('(');
                reprItems(t.items(), b, depth);
                if (t.items().size() == 1) b.append(',');
                b.append(')');
            }
            case PyList l -> {
                b.append('[');
                reprItems(l.items(), b, depth);
                b.append(']');
            }
            case Map<?, ?> m -> {
                b.append('{');
                boolean first = true;
                for (Map.Entry<?, ?> e : m.entrySet()) {
                    if (!first) b.append(", ");
                    first = false;
                    repr(e.getKey(), b, depth + 1);
                    b.append(": ");
                    repr(e.getValue(), b, depth + 1);
                }
                b.append('}');
            }
            default -> b.append(v);
        }
    }

    private static void reprItems(List<Object> items, StringBuilder b, int depth) {
        for (int i = 0; i < items.size(); i++) {
            if (i > 0) b.append(", ");
            repr(items.get(i), b, depth + 1);
        }
    }

    private Object value(int depth) throws SyntaxError {
        if (depth > MAX_DEPTH) throw new SyntaxError("literal nested more than " + MAX_DEPTH + " levels deep", pos);
        if (pos >= s.length()) throw new SyntaxError("unexpected end of header", pos);
        char c = s.charAt(pos);
        switch (c) {
            case '{':
                return dict(depth);
            case '(':
                return tupleOrParens(depth);
            case '[':
                return new PyList(sequence(']', depth));
            case '\'', '"':
                return string();
            default:
                break;
        }
        if (c == '+' || c == '-' || c == '.' || (c >= '0' && c <= '9')) return number();
        if (isNameStart(c)) {
            int start = pos;
            while (pos < s.length() && isNameChar(s.charAt(pos))) pos++;
            String name = s.substring(start, pos);
            if ((name.equals("u") || name.equals("U") || name.equals("r") || name.equals("R"))
                    && pos < s.length() && (s.charAt(pos) == '\'' || s.charAt(pos) == '"')) {
                return string();
            }
            return switch (name) {
                case "True" -> Boolean.TRUE;
                case "False" -> Boolean.FALSE;
                case "None" -> PyNone.NONE;
                default -> throw new SyntaxError("unexpected name '" + clip(name) + "' (not a literal)", start);
            };
        }
        throw new SyntaxError("unexpected " + describeHere(), pos);
    }

    private Map<String, Object> dict(int depth) throws SyntaxError {
        int open = pos;
        pos++; // '{'
        Map<String, Object> m = new LinkedHashMap<>();
        // Each iteration consumes at least one entry or the closing brace, so the loop is bounded by the length.
        for (int guard = 0; guard <= s.length(); guard++) {
            skipSpace();
            if (pos >= s.length()) throw new SyntaxError("dict opened at position " + open + " is never closed", pos);
            if (s.charAt(pos) == '}') {
                pos++;
                return m;
            }
            int keyPos = pos;
            Object key = value(depth + 1);
            if (!(key instanceof String k)) {
                throw new SyntaxError("dict key " + clip(repr(key)) + " is not a string", keyPos);
            }
            skipSpace();
            expect(':');
            skipSpace();
            Object v = value(depth + 1);
            if (m.containsKey(k)) throw new SyntaxError("duplicate key '" + clip(k) + "'", keyPos);
            m.put(k, v);
            skipSpace();
            if (pos < s.length() && s.charAt(pos) == ',') {
                pos++;
            } else if (pos < s.length() && s.charAt(pos) == '}') {
                pos++;
                return m;
            } else {
                throw new SyntaxError("expected ',' or '}' but found " + describeHere(), pos);
            }
        }
        throw new SyntaxError("dict is not closed", pos);
    }

    private Object tupleOrParens(int depth) throws SyntaxError {
        int open = pos;
        pos++; // '('
        List<Object> items = new ArrayList<>();
        boolean sawComma = false;
        for (int guard = 0; guard <= s.length(); guard++) {
            skipSpace();
            if (pos >= s.length()) throw new SyntaxError("'(' at position " + open + " is never closed", pos);
            if (s.charAt(pos) == ')') {
                pos++;
                // "(x)" is x itself in Python; "()" and "(x,)" are tuples.
                if (items.size() == 1 && !sawComma) return items.get(0);
                return new PyTuple(Collections.unmodifiableList(items));
            }
            items.add(value(depth + 1));
            skipSpace();
            if (pos < s.length() && s.charAt(pos) == ',') {
                pos++;
                sawComma = true;
            } else if (pos < s.length() && s.charAt(pos) == ')') {
                continue;
            } else {
                throw new SyntaxError("expected ',' or ')' but found " + describeHere(), pos);
            }
        }
        throw new SyntaxError("tuple is not closed", pos);
    }

    private List<Object> sequence(char close, int depth) throws SyntaxError {
        int open = pos;
        pos++;
        List<Object> items = new ArrayList<>();
        for (int guard = 0; guard <= s.length(); guard++) {
            skipSpace();
            if (pos >= s.length()) throw new SyntaxError("'[' at position " + open + " is never closed", pos);
            if (s.charAt(pos) == close) {
                pos++;
                return Collections.unmodifiableList(items);
            }
            items.add(value(depth + 1));
            skipSpace();
            if (pos < s.length() && s.charAt(pos) == ',') {
                pos++;
            } else if (!(pos < s.length() && s.charAt(pos) == close)) {
                throw new SyntaxError("expected ',' or '" + close + "' but found " + describeHere(), pos);
            }
        }
        throw new SyntaxError("list is not closed", pos);
    }

    private String string() throws SyntaxError {
        int start = pos;
        char q = s.charAt(pos++);
        StringBuilder b = new StringBuilder();
        while (pos < s.length()) {
            char c = s.charAt(pos++);
            if (c == q) return b.toString();
            if (c == '\\') throw new SyntaxError("escape sequences in header strings are not supported", pos - 1);
            if (c == '\n' || c == '\r') break;
            b.append(c);
        }
        throw new SyntaxError("string starting at position " + start + " is not closed", start);
    }

    private Object number() throws SyntaxError {
        int start = pos;
        boolean negative = false;
        if (s.charAt(pos) == '+' || s.charAt(pos) == '-') {
            negative = s.charAt(pos) == '-';
            pos++;
            skipSpace();
        }
        int digitsStart = pos;
        boolean isFloat = false;
        long value = 0;
        boolean overflow = false;
        int digits = 0;
        boolean lastUnderscore = false;
        while (pos < s.length()) {
            char c = s.charAt(pos);
            if (c >= '0' && c <= '9') {
                int dgt = c - '0';
                if (!overflow) {
                    // Accumulate negatively so that Long.MIN_VALUE is representable; overflow is sticky.
                    if (value < (Long.MIN_VALUE + dgt) / 10) overflow = true;
                    else value = value * 10 - dgt;
                }
                digits++;
                lastUnderscore = false;
                pos++;
            } else if (c == '_' && digits > 0 && !lastUnderscore) {
                lastUnderscore = true;
                pos++;
            } else {
                break;
            }
        }
        if (lastUnderscore) throw new SyntaxError("invalid number literal", start);
        if (pos < s.length() && (s.charAt(pos) == '.' || s.charAt(pos) == 'e' || s.charAt(pos) == 'E')) {
            isFloat = true;
            if (s.charAt(pos) == '.') {
                pos++;
                while (pos < s.length() && Character.isDigit(s.charAt(pos)) && s.charAt(pos) < 128) {
                    pos++;
                    digits++;
                }
            }
            if (digits == 0) throw new SyntaxError("invalid number literal", start);
            if (pos < s.length() && (s.charAt(pos) == 'e' || s.charAt(pos) == 'E')) {
                pos++;
                if (pos < s.length() && (s.charAt(pos) == '+' || s.charAt(pos) == '-')) pos++;
                int expStart = pos;
                while (pos < s.length() && s.charAt(pos) >= '0' && s.charAt(pos) <= '9') pos++;
                if (pos == expStart) throw new SyntaxError("invalid number literal", start);
            }
        }
        if (digits == 0) throw new SyntaxError("unexpected " + describeAt(start), start);
        if (!isFloat && allowLongSuffix && pos < s.length() && (s.charAt(pos) == 'L' || s.charAt(pos) == 'l')) {
            pos++;
        }
        if (pos < s.length() && isNameChar(s.charAt(pos))) {
            throw new SyntaxError("invalid number literal", start);
        }
        String text = s.substring(start, pos);
        if (isFloat) return new PyFloat(text);
        String digitText = s.substring(digitsStart, pos).replace("_", "");
        if (digitText.length() > 1 && digitText.charAt(0) == '0' && !digitText.matches("0+[Ll]?")) {
            throw new SyntaxError("leading zeros in an integer literal are not allowed", start);
        }
        if (!negative) {
            if (value == Long.MIN_VALUE) overflow = true;
            value = -value;
        }
        return new PyInt(overflow ? 0 : value, overflow, text);
    }

    private void expect(char c) throws SyntaxError {
        if (pos >= s.length() || s.charAt(pos) != c) {
            throw new SyntaxError("expected '" + c + "' but found " + describeHere(), pos);
        }
        pos++;
    }

    private void skipSpace() {
        while (pos < s.length()) {
            char c = s.charAt(pos);
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f') pos++;
            else break;
        }
    }

    private String describeHere() {
        return describeAt(pos);
    }

    private String describeAt(int at) {
        if (at >= s.length()) return "end of header";
        char c = s.charAt(at);
        if (c >= 0x20 && c < 0x7f) return "'" + c + "'";
        return String.format("character U+%04X", (int) c);
    }

    private static boolean isNameStart(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    }

    private static boolean isNameChar(char c) {
        return isNameStart(c) || (c >= '0' && c <= '9');
    }

    static String clip(String t) {
        return t.length() <= 40 ? t : t.substring(0, 37) + "...";
    }
}
