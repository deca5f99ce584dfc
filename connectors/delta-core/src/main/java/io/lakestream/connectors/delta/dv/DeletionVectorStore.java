package io.lakestream.connectors.delta.dv;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.delta.DeltaDeletionVector;
import io.lakestream.connectors.delta.DeltaErrorClass;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableException;
import io.lakestream.connectors.delta.kernel.KernelTablePath;
import io.lakestream.connectors.delta.kernel.KernelZ85;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.zip.CRC32;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Reads and writes the deletion vectors of one table, in the Delta protocol's storage format. A
 * vector file ({@code deletion_vector_<uuid>.bin} in the table root) holds a format version byte
 * ({@code 1}), then per vector its size (4 bytes), the serialized {@link RowIndexBitmap} and the
 * CRC-32 of those bytes (4 bytes), all big endian; a descriptor's offset points at the size. Inline
 * vectors are the serialized bitmap, Z85-encoded. Reads check size and checksum.
 *
 * <p>Failures are {@link DeltaTableException}s naming the table and the vector: {@code
 * DELTA_FILE_NOT_FOUND} for a missing file, {@code DELTA_TABLE_CORRUPT} for a size or checksum
 * mismatch or a damaged bitmap, {@code DELTA_TABLE_READ_FAILED} / {@code DELTA_TABLE_WRITE_FAILED}
 * for other I/O errors. Thread-safe.
 */
@Internal
public final class DeletionVectorStore {
  private static final byte FORMAT_VERSION = 1;
  private static final String FILE_PREFIX = "deletion_vector_";

  private final DeltaTable table;
  private final String root;

  /** The store of {@code table} (its root as Kernel names it); does no I/O. */
  public DeletionVectorStore(DeltaTable table) {
    this.table = table;
    this.root =
        io.delta.kernel.Table.forPath(table.engine(), table.path())
            .getPath(table.engine())
            .replaceAll("/+$", "");
  }

  /**
   * The row indexes {@code vector} deletes.
   *
   * @throws DeltaTableException see the class comment
   */
  public RowIndexBitmap load(DeltaDeletionVector vector) {
    if (vector.cardinality() == 0) {
      return new RowIndexBitmap();
    }
    try {
      if (vector.isInline()) {
        return RowIndexBitmap.deserialize(
            KernelZ85.decodeBytes(vector.pathOrInlineDv(), vector.sizeInBytes()));
      }
      return RowIndexBitmap.deserialize(readStored(vector));
    } catch (java.io.FileNotFoundException e) {
      throw new DeltaTableException(
          DeltaErrorClass.DELTA_FILE_NOT_FOUND,
          "The deletion vector file "
              + absolutePath(vector)
              + " of the Delta table at "
              + table.path()
              + " is missing (removed by hand or by a VACUUM with too short a retention); the"
              + " version that references it cannot be read.",
          e);
    } catch (IOException | RuntimeException e) {
      throw new DeltaTableException(
          DeltaErrorClass.DELTA_TABLE_CORRUPT,
          "Cannot read deletion vector " + vector + " of the Delta table at " + table.path(),
          e);
    }
  }

  private byte[] readStored(DeltaDeletionVector vector) throws IOException {
    Path file = new Path(absolutePath(vector));
    FileSystem fs = file.getFileSystem(table.hadoopConfiguration());
    try (FSDataInputStream in = fs.open(file)) {
      in.seek(Math.max(0, vector.offset()));
      DataInputStream data = new DataInputStream(in);
      int size = data.readInt();
      if (size != vector.sizeInBytes()) {
        throw new IOException(
            "size mismatch: the file says "
                + size
                + " bytes, the descriptor "
                + vector.sizeInBytes());
      }
      byte[] bytes = new byte[size];
      data.readFully(bytes);
      int checksum = data.readInt();
      if (checksum != checksum(bytes)) {
        throw new IOException("checksum mismatch");
      }
      return bytes;
    }
  }

  /**
   * The absolute path of an on-disk vector's file.
   *
   * @throws IllegalArgumentException for an inline vector
   */
  public String absolutePath(DeltaDeletionVector vector) {
    switch (vector.storageType()) {
      case "u":
        String encoded = vector.pathOrInlineDv();
        int split = encoded.length() - KernelZ85.UUID_LENGTH;
        String prefix = encoded.substring(0, split);
        UUID uuid = KernelZ85.decodeUuid(encoded.substring(split));
        return root + "/" + (prefix.isEmpty() ? "" : prefix + "/") + FILE_PREFIX + uuid + ".bin";
      case "p":
        return KernelTablePath.of(root).resolve(vector.pathOrInlineDv());
      default:
        throw new IllegalArgumentException("an inline deletion vector has no file: " + vector);
    }
  }

  /**
   * Writes {@code vectors} into one new file (in the table root) and returns their descriptors
   * ({@code u} storage, in the same order). Nothing references the file until a commit does.
   *
   * @throws DeltaTableException if the file cannot be written
   */
  public List<DeltaDeletionVector> write(List<RowIndexBitmap> vectors) {
    if (vectors.isEmpty()) {
      return List.of();
    }
    UUID uuid = UUID.randomUUID();
    Path file = new Path(root + "/" + FILE_PREFIX + uuid + ".bin");
    String encoded = KernelZ85.encodeUuid(uuid);
    List<DeltaDeletionVector> written = new ArrayList<>(vectors.size());
    try {
      FileSystem fs = file.getFileSystem(table.hadoopConfiguration());
      try (DataOutputStream out = fs.create(file, false)) {
        out.writeByte(FORMAT_VERSION);
        for (RowIndexBitmap vector : vectors) {
          byte[] bytes = vector.serialize();
          written.add(
              new DeltaDeletionVector(
                  "u", encoded, out.size(), bytes.length, vector.cardinality()));
          out.writeInt(bytes.length);
          out.write(bytes);
          out.writeInt(checksum(bytes));
        }
      }
    } catch (IOException | RuntimeException e) {
      throw new DeltaTableException(
          DeltaErrorClass.DELTA_TABLE_WRITE_FAILED,
          "Cannot write deletion vector file " + file + " of the Delta table at " + table.path(),
          e);
    }
    return written;
  }

  private static int checksum(byte[] bytes) {
    CRC32 crc = new CRC32();
    crc.update(bytes);
    return (int) crc.getValue();
  }
}
