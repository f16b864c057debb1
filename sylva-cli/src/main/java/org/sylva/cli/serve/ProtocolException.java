package org.sylva.cli.serve;

import java.io.IOException;

/**
 * The byte stream is not a sequence of frames any more (a wrong magic, an unknown dtype, an end of
 * stream inside a frame): the reader cannot tell where the next frame starts, so the engine reports it
 * and stops. A frame that is well formed but too large is a {@link RefusedFrameException} instead.
 *
 * <pre>{@code
 * try {
 *     for (Frame f = reader.read(); f != null; f = reader.read()) respond(f);
 * } catch (ProtocolException e) {
 *     send(ErrorFrames.frame("ProtocolError", e.getMessage(), null));   // then stop: the stream is out of step
 * }
 * }</pre>
 */
public final class ProtocolException extends IOException {
    public ProtocolException(String message) {
        super(message);
    }
}
