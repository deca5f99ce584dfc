package io.lakestream.connectors.autoloader.ledger;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.connectors.autoloader.discovery.DiscoveredFile;
import java.time.Instant;
import java.util.List;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.types.Row;

/**
 * The file a row was read from, as Databricks' {@code _metadata} column has it: the fields a row
 * ends with when the stream is built with file metadata ({@link
 * io.lakestream.connectors.autoloader.AutoLoader#streamWithFileMetadata}), in the order of {@link
 * #FIELDS}.
 */
@PublicEvolving
public enum FileMetadata {
  /** The file's full path (URI), {@code STRING}. */
  FILE_PATH("file_path", Types.STRING),
  /** The file's name, without its directories, {@code STRING}. */
  FILE_NAME("file_name", Types.STRING),
  /** The file's length in bytes, {@code BIGINT}. */
  FILE_SIZE("file_size", Types.LONG),
  /** The file's modification time when it was discovered, {@code TIMESTAMP}. */
  FILE_MODIFICATION_TIME("file_modification_time", Types.INSTANT);

  /** Every field, in row order. */
  public static final List<FileMetadata> FIELDS = List.of(values());

  private final String field;
  private final TypeInformation<?> type;

  FileMetadata(String field, TypeInformation<?> type) {
    this.field = field;
    this.type = type;
  }

  /** The field's name in {@code _metadata}, e.g. {@code file_path}. */
  public String field() {
    return field;
  }

  /** The type of the field's values. */
  public TypeInformation<?> type() {
    return type;
  }

  /** The metadata fields of {@code file}, whose full path is {@code path}, in row order. */
  static Row of(DiscoveredFile file, String path) {
    String name = path.substring(path.lastIndexOf('/') + 1);
    return Row.of(path, name, file.size, Instant.ofEpochMilli(file.modificationTime));
  }
}
