package org.sylva.io;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/** Builds .npy byte layouts by hand, independently of the writer under test. */
final class NpyBytes {
    private NpyBytes() {
    }

    /** A file as NumPy lays it out: header dict padded with spaces to a multiple of 64, then '\n'. */
    static byte[] file(String dict, byte[] data) {
        return file(1, dict, data);
    }

    static byte[] file(int major, String dict, byte[] data) {
        byte[] text = dict.getBytes(major == 3 ? StandardCharsets.UTF_8 : StandardCharsets.ISO_8859_1);
        int lengthBytes = major == 1 ? 2 : 4;
        int hlen = text.length + 1;
        int pad = 64 - ((8 + lengthBytes + hlen) % 64);
        byte[] header = new byte[text.length + pad + 1];
        System.arraycopy(text, 0, header, 0, text.length);
        for (int i = text.length; i < header.length - 1; i++) header[i] = ' ';
        header[header.length - 1] = '\n';
        return raw(major, 0, header.length, header, data);
    }

    /** Exact control: magic, version, stated header length (may lie), header bytes, data bytes. */
    static byte[] raw(int major, int minor, long statedHeaderLength, byte[] header, byte[] data) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(0x93);
        out.writeBytes("NUMPY".getBytes(StandardCharsets.US_ASCII));
        out.write(major);
        out.write(minor);
        ByteBuffer len = ByteBuffer.allocate(major == 1 ? 2 : 4).order(ByteOrder.LITTLE_ENDIAN);
        if (major == 1) len.putShort((short) statedHeaderLength);
        else len.putInt((int) statedHeaderLength);
        out.writeBytes(len.array());
        out.writeBytes(header);
        out.writeBytes(data);
        return out.toByteArray();
    }

    static String dict(String descr, boolean fortran, String shape) {
        return "{'descr': '" + descr + "', 'fortran_order': " + (fortran ? "True" : "False") + ", 'shape': " + shape + ", }";
    }

    static byte[] floats(ByteOrder order, float... v) {
        ByteBuffer b = ByteBuffer.allocate(v.length * 4).order(order);
        for (float x : v) b.putFloat(x);
        return b.array();
    }

    static byte[] doubles(ByteOrder order, double... v) {
        ByteBuffer b = ByteBuffer.allocate(v.length * 8).order(order);
        for (double x : v) b.putDouble(x);
        return b.array();
    }

    static byte[] ints(ByteOrder order, int... v) {
        ByteBuffer b = ByteBuffer.allocate(v.length * 4).order(order);
        for (int x : v) b.putInt(x);
        return b.array();
    }

    static byte[] longs(ByteOrder order, long... v) {
        ByteBuffer b = ByteBuffer.allocate(v.length * 8).order(order);
        for (long x : v) b.putLong(x);
        return b.array();
    }

    /** Two bytes per value (int16, uint16 or float16 bits), in the given order. */
    static byte[] shorts(ByteOrder order, int... v) {
        ByteBuffer b = ByteBuffer.allocate(v.length * 2).order(order);
        for (int x : v) b.putShort((short) x);
        return b.array();
    }

    static byte[] bytes(int... v) {
        byte[] b = new byte[v.length];
        for (int i = 0; i < v.length; i++) b[i] = (byte) v[i];
        return b;
    }
}
