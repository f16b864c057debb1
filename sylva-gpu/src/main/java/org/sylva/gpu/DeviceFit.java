package org.sylva.gpu;

/**
 * One fit's data on a device: the points uploaded, buffers for the nearest lists and the Borůvka rounds.
 * The engine ({@link GpuHdbscanEngine}) drives it launch by launch; each call returns when the device has
 * finished, so the engine can check cancellation and report progress between launches. One
 * implementation ({@link KernelFit}) over each API's {@link DeviceSession}; closing frees the device memory.
 *
 * <pre>{@code
 * try (DeviceFit f = device.open(points, k)) { f.coreLists(0, n); f.readLists(sq, idx); }
 * }</pre>
 */
public interface DeviceFit extends AutoCloseable {
    /** The device's width for {@link #coreLists}: the points one wave of launches covers ({@link DeviceSession#width}). */
    int coreListsWidth();

    /** The device's width for {@link #cheapestEdges}. */
    int cheapestEdgesWidth();

    /** Computes the nearest lists of points {@code first .. first + count - 1}; returns when done. */
    void coreLists(int first, int count);

    /** Reads every point's list: {@code k} squared distances and indices per point, row-major. */
    void readLists(double[] squared, int[] indices);

    /** Uploads the core distances (once, before the rounds). */
    void setCore(double[] core);

    /** Uploads a round's component of each point and the first {@code activeCount} active points. */
    void setRound(int[] component, int[] active, int activeCount);

    /** The cheapest edges of active points {@code first .. first + count - 1}; returns when done. */
    void cheapestEdges(int first, int count, double alpha);

    /** Reads the round's first {@code count} edges (weight and other endpoint, -1 for none). */
    void readEdges(int count, double[] weight, int[] other);

    @Override
    void close();
}
