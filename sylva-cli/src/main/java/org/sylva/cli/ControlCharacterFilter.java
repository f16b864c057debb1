package org.sylva.cli;

import java.io.FilterWriter;
import java.io.IOException;
import java.io.Writer;

/**
 * The writer of a command's standard error: control characters other than tab, newline and carriage return (the
 * progress line's) are written as {@code \xNN}, so that a file name or a value that holds a terminal's escape
 * sequences ({@code ESC ] 0 ;} retitles the window, {@code ESC [ 2 J} clears the screen) is shown, not obeyed,
 * when an error or a note quotes it. C0 controls, DEL and the C1 range U+0080–U+009F are escaped; all else passes.
 *
 * <pre>{@code
 * PrintWriter err = new PrintWriter(new ControlCharacterFilter(new OutputStreamWriter(System.err)), true);
 * err.println("cannot read " + name);   // a name of ESC [ 2 J x.npy prints as: cannot read \x1b[2Jx.npy
 * }</pre>
 */
final class ControlCharacterFilter extends FilterWriter {
    ControlCharacterFilter(Writer out) {
        super(out);
    }

    static boolean escaped(int c) {
        return (c < 0x20 && c != '\t' && c != '\n' && c != '\r') || (c >= 0x7f && c <= 0x9f);
    }

    @Override
    public void write(int c) throws IOException {
        if (escaped(c)) {
            out.write(escape(c));
        } else {
            out.write(c);
        }
    }

    @Override
    public void write(char[] cbuf, int off, int len) throws IOException {
        int from = off, end = off + len;
        for (int i = off; i < end; i++) {
            if (escaped(cbuf[i])) {
                out.write(cbuf, from, i - from);
                out.write(escape(cbuf[i]));
                from = i + 1;
            }
        }
        out.write(cbuf, from, end - from);
    }

    @Override
    public void write(String str, int off, int len) throws IOException {
        int from = off, end = off + len;
        for (int i = off; i < end; i++) {
            if (escaped(str.charAt(i))) {
                out.write(str, from, i - from);
                out.write(escape(str.charAt(i)));
                from = i + 1;
            }
        }
        out.write(str, from, end - from);
    }

    private static String escape(int c) {
        String hex = Integer.toHexString(c);
        return hex.length() == 1 ? "\\x0" + hex : "\\x" + hex;
    }
}
