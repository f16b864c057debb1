package org.sylva.spark;

import java.io.BufferedOutputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.NoSuchFileException;
import java.util.UUID;

import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.sylva.hdbscan.predict.HdbscanModel;

/**
 * The data of a saved {@link SylvaHdbscanModel}: the library's model file ({@code docs/model-file.md}, CRC-checked)
 * at {@code DIR/data/hdbscan.model}, written and read on the driver through Hadoop's {@link FileSystem}, so a model
 * directory may be on HDFS, S3 or any file system Spark reaches. On the local file system the library writes and
 * reads the file itself (written under a temporary name and renamed into place, read in a stream); elsewhere the
 * bytes are streamed to a temporary name beside the file and renamed (atomic on HDFS; on object stores a rename is
 * a copy, and a file cut short is still refused by its length and checksums), and read back whole, which bounds
 * such a file at {@link #MAX_REMOTE_BYTES}.
 *
 * <pre>{@code
 * Path file = ModelData.file("hdfs:///models/clips");
 * ModelData.write(model, file, file.getFileSystem(conf));
 * HdbscanModel back = ModelData.read(file, file.getFileSystem(conf));
 * }</pre>
 */
final class ModelData {
    /** Where in a model directory the model file lies. */
    static final String DATA_FILE = "data/hdbscan.model";
    /** Largest model file read from a file system other than the local one (it is read into one array). */
    static final long MAX_REMOTE_BYTES = Integer.MAX_VALUE - 8;

    private ModelData() {
    }

    /** The model file of the model directory {@code dir}. */
    static Path file(String dir) {
        return new Path(dir, DATA_FILE);
    }

    /** Writes {@code model} to {@code file} on {@code fs}: all of it under that name, or nothing there. */
    static void write(HdbscanModel model, Path file, FileSystem fs) throws IOException {
        Path qualified = fs.makeQualified(file);
        if (!fs.mkdirs(qualified.getParent())) throw new IOException("cannot create " + qualified.getParent());
        if (fs instanceof LocalFileSystem local) {
            model.save(local.pathToFile(qualified).toPath());
            return;
        }
        Path tmp = new Path(qualified.getParent(), "." + qualified.getName() + "." + UUID.randomUUID() + ".tmp");
        boolean done = false;
        try {
            try (OutputStream out = new BufferedOutputStream(fs.create(tmp, false), 1 << 16)) {
                model.writeTo(out);
            }
            if (!fs.rename(tmp, qualified)) throw new IOException("cannot rename " + tmp + " to " + qualified);
            done = true;
        } finally {
            if (!done) fs.delete(tmp, false);
        }
    }

    /**
     * The model in {@code file} on {@code fs}, with the library's checks (length, checksums, content); a problem
     * is an {@link org.sylva.data.InvalidInputException} naming the file, a missing file an
     * {@link FileNotFoundException} naming it.
     */
    static HdbscanModel read(Path file, FileSystem fs) throws IOException {
        return read(file, fs, MAX_REMOTE_BYTES);
    }

    /** As {@link #read(Path, FileSystem)}, reading at most {@code maxRemoteBytes} from a file system not the local one. */
    static HdbscanModel read(Path file, FileSystem fs, long maxRemoteBytes) throws IOException {
        Path qualified = fs.makeQualified(file);
        try {
            if (fs instanceof LocalFileSystem local) return HdbscanModel.load(local.pathToFile(qualified).toPath());
            FileStatus st = fs.getFileStatus(qualified);
            if (st.isDirectory()) throw new IOException("model file " + qualified + " is a directory");
            if (st.getLen() > maxRemoteBytes) {
                throw new IOException("model file " + qualified + ": " + st.getLen() + " bytes; a model file on a "
                        + "file system other than the local one is read whole, up to " + maxRemoteBytes
                        + " bytes: copy the model directory to a local path and load it from there");
            }
            byte[] bytes;
            try (InputStream in = fs.open(qualified)) {
                bytes = in.readAllBytes();
            }
            return HdbscanModel.fromBytes(bytes, qualified.toString());
        } catch (FileNotFoundException | NoSuchFileException e) {
            FileNotFoundException f = new FileNotFoundException("model file " + qualified + " does not exist: the "
                    + "directory holds no SylvaHdbscanModel data (not written by SylvaHdbscanModel.save, or not "
                    + "completely)");
            f.initCause(e);
            throw f;
        }
    }
}
