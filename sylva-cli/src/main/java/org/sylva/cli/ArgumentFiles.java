package org.sylva.cli;

import java.io.IOException;
import java.io.StreamTokenizer;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

/**
 * Checks the {@code @FILE} arguments of a command line before picocli expands them into their files' words:
 * picocli reads a file it cannot read (a directory, a file without read permission) as a literal word or dies of
 * it with a stack trace, and it closes a quote left open at the end of its line without a word. Here each is
 * one line naming the file (and the line), before anything runs. A name that no file has stays a word, as picocli
 * keeps it (the command then names it), and {@code @@NAME} is the word {@code @NAME}. Files named inside a file are
 * checked too, each once.
 *
 * <pre>{@code
 * String problem = ArgumentFiles.problem(args);   // null: picocli may expand them
 * }</pre>
 */
final class ArgumentFiles {
    /** Nesting of files named inside files that is followed (picocli follows any depth, each file once). */
    private static final int MAX_DEPTH = 16;
    /** Largest argument file read here (picocli reads any size; a larger one is surely not a list of words). */
    private static final long MAX_BYTES = 16L << 20;

    private ArgumentFiles() {
    }

    /** The first problem with an {@code @FILE} argument of {@code args}, or null. */
    static String problem(String[] args) {
        Set<Path> seen = new HashSet<>();
        for (String arg : args) {
            String p = check(arg, seen, 0);
            if (p != null) return p;
        }
        return null;
    }

    /** The problem with the word {@code word} when it names an argument file, else null. */
    private static String check(String word, Set<Path> seen, int depth) {
        if (!word.startsWith("@") || word.equals("@") || word.startsWith("@@") || depth > MAX_DEPTH) return null;
        String name = word.substring(1);
        Path file;
        try {
            file = Path.of(name);
        } catch (InvalidPathException e) {
            return null;   // no file has such a name: a word, as picocli keeps it
        }
        if (!Files.exists(file)) return null;
        if (Files.isDirectory(file)) {
            return word + ": " + name + " is a directory, not a file of arguments (write a name that starts with @ as @@NAME)";
        }
        Path key = file.toAbsolutePath().normalize();
        if (!seen.add(key)) return null;   // read once, as picocli reads it once
        String text;
        try {
            if (Files.size(file) > MAX_BYTES) {
                return word + ": " + name + " is larger than 16 MiB; an argument file holds words";
            }
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (AccessDeniedException e) {
            return word + ": permission denied";
        } catch (IOException | RuntimeException e) {
            return word + ": " + name + " could not be read (" + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : ": " + e.getMessage()) + ")";
        }
        int open = unclosedQuote(text);
        if (open > 0) {
            return word + " line " + open + ": a quote is not closed on its line (a word with spaces is written "
                    + "\"my results\" or 'my results', on one line)";
        }
        for (String inner : words(text)) {
            String p = check(inner, seen, depth + 1);
            if (p != null) return p;
        }
        return null;
    }

    /**
     * The line (from 1) on which a quote of {@code text} opens and is not closed before the line ends, or 0: the
     * syntax picocli's tokenizer reads ({@link java.io.StreamTokenizer} with {@code "} and {@code '} as quotes,
     * {@code #} a comment to the end of the line outside quotes, a backslash in quotes escaping the next character).
     */
    static int unclosedQuote(String text) {
        int line = 1;
        char quote = 0;
        boolean comment = false;
        int n = text.length();
        for (int i = 0; i < n; i++) {
            char c = text.charAt(i);
            if (c == '\n' || c == '\r') {
                if (quote != 0) return line;
                comment = false;
                if (c == '\r' && i + 1 < n && text.charAt(i + 1) == '\n') i++;
                line++;
            } else if (comment) {
                continue;
            } else if (quote != 0) {
                if (c == '\\') {
                    i++;   // the escaped character, whatever it is, belongs to the word
                    if (i < n && text.charAt(i) == '\n') line++;
                } else if (c == quote) {
                    quote = 0;
                }
            } else if (c == '#') {
                comment = true;
            } else if (c == '"' || c == '\'') {
                quote = c;
            }
        }
        return quote != 0 ? line : 0;
    }

    /** The words of an argument file as picocli's tokenizer reads them (files named inside are checked in turn). */
    private static java.util.List<String> words(String text) {
        java.util.List<String> out = new java.util.ArrayList<>();
        StreamTokenizer tok = new StreamTokenizer(new StringReader(text));
        tok.resetSyntax();
        tok.wordChars(' ', 255);
        tok.whitespaceChars(0, ' ');
        tok.quoteChar('"');
        tok.quoteChar('\'');
        tok.commentChar('#');
        try {
            for (int i = 0; i <= text.length() && tok.nextToken() != StreamTokenizer.TT_EOF; i++) {
                if (tok.sval != null) out.add(tok.sval);
            }
        } catch (IOException e) {
            throw new IllegalStateException("a string cannot fail to be read", e);
        }
        return out;
    }
}
