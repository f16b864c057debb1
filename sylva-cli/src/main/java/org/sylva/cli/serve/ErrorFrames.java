package org.sylva.cli.serve;

import java.util.LinkedHashMap;
import java.util.Map;
import org.sylva.data.InvalidInputException;

/**
 * Turns a failure into the {@code error} response the client raises: parameters {@code type} (the
 * Python exception to raise: {@code ValueError} for bad input or parameters, {@code MemoryError},
 * {@code ModelNotHeld} for a model named by a digest the engine does not hold, {@code RuntimeError} for
 * anything else, {@code ProtocolError} for a broken stream), {@code message}
 * (the library's message, one line) and {@code parameter} (the scikit-learn name of the parameter at
 * fault, or null).
 *
 * <pre>{@code
 * Frame f = ErrorFrames.of(new InvalidInputException("points must be 2-D"));   // type ValueError
 * }</pre>
 */
final class ErrorFrames {
    private ErrorFrames() {
    }

    /** The {@code error} response for {@code t}. */
    static Frame of(Throwable t) {
        if (t instanceof PredictHandler.ModelNotHeldException e) return frame(PredictHandler.MODEL_NOT_HELD, e.getMessage(), null);
        if (t instanceof org.sylva.data.InsufficientMemoryException e) return frame("MemoryError", e.getMessage(), null);
        if (t instanceof InvalidInputException e) return frame("ValueError", e.getMessage(), e.parameter().orElse(null));
        if (t instanceof IllegalArgumentException e && e.getMessage() != null) return frame("ValueError", e.getMessage(), null);
        if (t instanceof OutOfMemoryError) {
            return frame("MemoryError", "out of memory: the engine's heap is "
                    + FrameReader.mib(Runtime.getRuntime().maxMemory()) + "; raise it, e.g. SYLVA_JAVA_OPTS=-Xmx16g", null);
        }
        String m = t.getMessage();
        return frame("RuntimeError", m == null ? t.getClass().getSimpleName() : t.getClass().getSimpleName() + ": " + m, null);
    }

    /** An {@code error} response of the given type. */
    static Frame frame(String type, String message, String parameter) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("type", type);
        p.put("message", message == null ? type : message.strip().replaceAll("\\s*\\R\\s*", "; "));
        p.put("parameter", parameter);
        return new Frame("error", p);
    }
}
