package org.sylva.gpu.opencl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.sylva.data.InsufficientMemoryException;

/** How an OpenCL call's error code becomes an exception: memory running out is a memory error, the rest driver errors. */
class OpenClErrorsTest {
    @Test
    void anAllocationFailureIsAMemoryErrorWithTheDriversCodeAsItsCause() {
        for (int code : new int[] {-4, -6}) {
            InsufficientMemoryException e = assertThrows(InsufficientMemoryException.class,
                    () -> OpenCl.check(code, "clEnqueueWriteBuffer"));
            OpenClException cause = assertInstanceOf(OpenClException.class, e.getCause());
            assertEquals(code, cause.code());
            assertEquals(cause.getMessage() + ": the OpenCL device ran out of memory", e.getMessage());
        }
        assertEquals("clCreateBuffer(64 bytes): CL_MEM_OBJECT_ALLOCATION_FAILURE (-4): the OpenCL device ran out of memory",
                assertThrows(InsufficientMemoryException.class, () -> OpenCl.check(-4, "clCreateBuffer(64 bytes)")).getMessage());
    }

    @Test
    void otherCodesAreDriverErrorsAndSuccessIsNothing() {
        OpenCl.check(0, "clFinish");
        OpenClException e = assertThrows(OpenClException.class, () -> OpenCl.check(-5, "clFinish"));
        assertEquals("clFinish: CL_OUT_OF_RESOURCES (-5)", e.getMessage());
        assertEquals(-5, e.code());
    }
}
