package io.lakestream.connectors.autoloader.schema;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.api.error.SchemaChangeFailure;
import io.lakestream.connectors.autoloader.AutoLoaderErrorClass;
import java.util.List;

/**
 * A file has columns the stream's schema does not have. In {@code addNewColumns} mode the schema
 * with them is already recorded in the schema history when this is thrown, so restarting the query
 * (from its checkpoint) continues with the new schema; in {@code failOnNewColumns} mode nothing is
 * recorded. Thrown from the task, so the job fails; a Flink restart with the same job graph fails
 * the same way, so the query must be rebuilt: the query runtime does that by itself when the schema
 * was recorded ({@link SchemaChangeFailure}). Error class {@code UNKNOWN_FIELD_EXCEPTION}, Spark's
 * name (Spark adds the subclass {@code NEW_FIELDS_IN_RECORD_WITH_FILE_PATH}).
 */
@PublicEvolving
public class UnknownFieldException extends LakestreamException implements SchemaChangeFailure {
  private static final long serialVersionUID = 1L;

  private final List<String> newColumns;
  private final String file;
  private final long recordedVersion;

  public UnknownFieldException(
      String message, List<String> newColumns, String file, long recordedVersion) {
    super(
        AutoLoaderErrorClass.UNKNOWN_FIELD_EXCEPTION,
        recordedVersion >= 0
            ? message + " " + SchemaChangeFailure.recordedNote(newColumns)
            : message);
    this.newColumns = List.copyOf(newColumns);
    this.file = file;
    this.recordedVersion = recordedVersion;
  }

  /** The columns the schema lacks. */
  public List<String> newColumns() {
    return newColumns;
  }

  @Override
  public List<String> changedColumns() {
    return newColumns;
  }

  @Override
  public boolean recorded() {
    return recordedVersion >= 0;
  }

  /** The file they were found in. */
  public String file() {
    return file;
  }

  /** The schema history version recorded with them, or -1 if none was recorded. */
  public long recordedVersion() {
    return recordedVersion;
  }
}
