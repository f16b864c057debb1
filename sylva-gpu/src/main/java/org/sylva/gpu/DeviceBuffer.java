package org.sylva.gpu;

/**
 * A block of device memory an API handed out: its handle ({@code cl_mem} or a {@code CUdeviceptr}, as
 * a 64-bit value) and its size. Only the {@link DeviceSession} that allocated it may use or free it.
 *
 * <pre>{@code
 * DeviceBuffer b = session.allocate(8L * n);
 * }</pre>
 *
 * @param handle the API's handle, as a number
 * @param bytes the size in bytes
 */
public record DeviceBuffer(long handle, long bytes) {
}
