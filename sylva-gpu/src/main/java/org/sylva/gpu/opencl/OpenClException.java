package org.sylva.gpu.opencl;

import org.sylva.gpu.GpuException;

/**
 * An OpenCL call that returned an error: the message names the call and the code
 * ({@code "clCreateBuffer: CL_MEM_OBJECT_ALLOCATION_FAILURE (-4)"}).
 *
 * <pre>{@code
 * throw new OpenClException("clFinish", -36);
 * }</pre>
 */
public final class OpenClException extends GpuException {
    private static final long serialVersionUID = 1L;
    private final int code;

    public OpenClException(String call, int code) {
        super(call + ": " + ClErrors.name(code) + " (" + code + ")");
        this.code = code;
    }

    public OpenClException(String message) {
        super(message);
        this.code = 0;
    }

    /** The OpenCL error code, 0 where the failure was not one call's code. */
    public int code() {
        return code;
    }
}
