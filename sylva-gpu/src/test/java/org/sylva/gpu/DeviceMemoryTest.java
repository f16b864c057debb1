package org.sylva.gpu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.sylva.data.InsufficientMemoryException;
import org.sylva.balltree.BallTreeBuilder;
import org.sylva.data.PointSet;
import org.sylva.hdbscan.engine.FittedPoints;

/**
 * A buffer beyond the device's largest single allocation ({@code CL_DEVICE_MAX_MEM_ALLOC_SIZE}) is refused
 * before anything is allocated, in a sentence naming the buffer, its size and the limit: not the API's
 * bare {@code CL_INVALID_BUFFER_SIZE}. The limits are lowered by sessions that report a smaller device
 * (nothing of gigabytes is allocated).
 */
class DeviceMemoryTest {
    /** A session of no device: it reports the given memory and largest buffer and counts allocations. */
    private static final class NoDevice implements DeviceSession {
        final long memory, largest;
        int allocations;
        boolean closed;

        NoDevice(long memory, long largest) {
            this.memory = memory;
            this.largest = largest;
        }

        @Override
        public String deviceName() {
            return "a small device";
        }

        @Override
        public long memoryBytes() {
            return memory;
        }

        @Override
        public long largestAllocationBytes() {
            return largest;
        }

        @Override
        public int groupSize() {
            return 64;
        }

        @Override
        public int width(String kernel) {
            return 64;
        }

        @Override
        public DeviceBuffer allocate(long bytes) {
            allocations++;
            return new DeviceBuffer(allocations, bytes);
        }

        @Override
        public void upload(DeviceBuffer buffer, long offset, MemorySegment host) {
        }

        @Override
        public void download(DeviceBuffer buffer, long offset, MemorySegment host) {
        }

        @Override
        public void launch(String kernel, int items, KernelArg... args) {
        }

        @Override
        public void close() {
            closed = true;
        }
    }

    /** A real session whose device allows buffers of at most {@code largest} bytes. */
    private record Limited(DeviceSession s, long largest) implements DeviceSession {
        @Override
        public String deviceName() {
            return s.deviceName();
        }

        @Override
        public long memoryBytes() {
            return s.memoryBytes();
        }

        @Override
        public long largestAllocationBytes() {
            return largest;
        }

        @Override
        public int groupSize() {
            return s.groupSize();
        }

        @Override
        public int width(String kernel) {
            return s.width(kernel);
        }

        @Override
        public DeviceBuffer allocate(long bytes) {
            return s.allocate(bytes);
        }

        @Override
        public void upload(DeviceBuffer buffer, long offset, MemorySegment host) {
            s.upload(buffer, offset, host);
        }

        @Override
        public void download(DeviceBuffer buffer, long offset, MemorySegment host) {
            s.download(buffer, offset, host);
        }

        @Override
        public void launch(String kernel, int items, KernelArg... args) {
            s.launch(kernel, items, args);
        }

        @Override
        public void launchQueued(String kernel, int items, KernelArg... args) {
            s.launchQueued(kernel, items, args);
        }

        @Override
        public void finish() {
            s.finish();
        }

        @Override
        public void close() {
            s.close();
        }
    }

    /** The OpenCL test device, its tree sessions limited to buffers of {@code largest} bytes. */
    private static GpuBackend limited(long largest) {
        GpuBackend b = TestDevice.openCl();
        return new GpuBackend() {
            @Override
            public String name() {
                return b.name();
            }

            @Override
            public GpuDevice device() {
                return b.device();
            }

            @Override
            public DeviceFit open(FittedPoints points, int k) {
                return b.open(points, k);
            }

            @Override
            public DeviceSession treeSession() {
                return new Limited(b.treeSession(), largest);
            }
        };
    }

    @Test
    void tooManyCoordinatesAreTheInputsFaultNotTheDevices() {
        // an InvalidInputException: the CLI's one line, and Python's ValueError, not a failing engine's EngineError
        org.sylva.data.InvalidInputException e = assertThrows(org.sylva.data.InvalidInputException.class,
                () -> TileShape.rowsPerTile(TileShape.TILE_DOUBLES + 1));
        assertTrue(e.getMessage().startsWith("the GPU engine handles at most 2048 coordinates per point, got 2049"),
                e.getMessage());
        assertEquals(1, TileShape.rowsPerTile(TileShape.TILE_DOUBLES));
    }

    @Test
    void aFitWhoseLargestBufferTheDeviceDoesNotAllowIsRefusedBeforeAnyBuffer() {
        int n = 1000, d = 4, k = 300;
        NoDevice dev = new NoDevice(1L << 30, 1L << 20);
        InsufficientMemoryException e = assertThrows(InsufficientMemoryException.class,
                () -> new KernelFit(dev, new FittedPoints(new double[n * d], n, d), k));
        assertEquals("the fit needs a buffer of 2.3 MiB for its nearest distances (n x k float64), more than the "
                + "largest single buffer a small device allows, 1.0 MiB", e.getMessage());
        assertEquals(0, dev.allocations);
        assertTrue(dev.closed, "the session is closed, the device free for the next fit");
        // the total is checked first, with its own figure
        NoDevice small = new NoDevice(1L << 20, 1L << 20);
        e = assertThrows(InsufficientMemoryException.class, () -> new KernelFit(small, new FittedPoints(new double[n * d], n, d), k));
        assertTrue(e.getMessage().startsWith("the fit needs 3.5 MiB of device memory, a small device has 1.0 MiB"),
                e.getMessage());
        assertEquals(0, small.allocations);
    }

    @Test
    void aBallTreeWhoseLargestBufferTheDeviceDoesNotAllowIsRefusedAndTheDeviceStaysUsable() {
        SplittableRandom r = new SplittableRandom(4);
        int n = 3000;
        float[] x3 = new float[n * 3], x40 = new float[n * 40];
        for (int i = 0; i < x3.length; i++) x3[i] = (float) r.nextDouble();
        for (int i = 0; i < x40.length; i++) x40[i] = (float) r.nextDouble();
        // 16 histogram ints per point: 187.5 KiB, the largest buffer at d = 3
        GpuTreeEngine e = new GpuTreeEngine(limited(100_000));
        InsufficientMemoryException h = assertThrows(InsufficientMemoryException.class,
                () -> new BallTreeBuilder().engine(e).build(PointSet.of(n, 3, x3)));
        assertTrue(h.getMessage().startsWith("the ball tree needs a buffer of 0.2 MiB for its radix histograms (16 n int32), "
                + "more than the largest single buffer "), h.getMessage());
        assertTrue(h.getMessage().endsWith(" allows, 0.1 MiB"), h.getMessage());
        // 40 float32 coordinates a point: the coordinates are refused before they are uploaded
        InsufficientMemoryException c = assertThrows(InsufficientMemoryException.class,
                () -> new BallTreeBuilder().engine(e).build(PointSet.of(n, 40, x40)));
        assertTrue(c.getMessage().startsWith("the ball tree needs a buffer of 0.5 MiB for its coordinates (n x d float32)"),
                c.getMessage());
        // the device was left free: with room for the histograms, the same build is the CPU's
        GpuTreeEngine roomy = new GpuTreeEngine(limited(1L << 20));
        assertArrayEquals(new BallTreeBuilder().threads(1).build(PointSet.of(n, 3, x3)).indices(),
                new BallTreeBuilder().engine(roomy).build(PointSet.of(n, 3, x3)).indices());
    }

    @Test
    void anOpenClBufferBeyondTheLargestAllocationIsNamedNotAnErrorCode() {
        try (DeviceSession s = TestDevice.openCl().treeSession()) {
            long most = s.largestAllocationBytes();
            assertTrue(most > 0 && most <= TestDevice.openCl().device().globalMemoryBytes(), "limit " + most);
            InsufficientMemoryException e = assertThrows(InsufficientMemoryException.class, () -> s.allocate(most + 1));
            assertTrue(e.getMessage().contains("is more than the largest single buffer " + s.deviceName() + " allows"),
                    e.getMessage());
            assertEquals(4, s.allocate(4).bytes());   // and the session goes on
        }
    }
}
