package io.lakestream.connectors.delta.source;

import io.delta.kernel.Snapshot;
import io.delta.kernel.types.BinaryType;
import io.delta.kernel.types.BooleanType;
import io.delta.kernel.types.ByteType;
import io.delta.kernel.types.DataType;
import io.delta.kernel.types.DateType;
import io.delta.kernel.types.DecimalType;
import io.delta.kernel.types.DoubleType;
import io.delta.kernel.types.FloatType;
import io.delta.kernel.types.IntegerType;
import io.delta.kernel.types.LongType;
import io.delta.kernel.types.ShortType;
import io.delta.kernel.types.StringType;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.TimestampNTZType;
import io.delta.kernel.types.TimestampType;
import io.lakestream.connectors.delta.DeltaErrorClass;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableException;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.connectors.source.CheckedOptionsBuilder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.typeutils.RowTypeInfo;

/**
 * Builds a {@link DeltaSource} from Spark-compatible options ({@link DeltaSourceOptions}; keys
 * ignore case). {@link #build()} runs {@link #sanityCheck()} (unknown options and bad values fail
 * with a {@link io.lakestream.api.error.LakestreamException} naming the option, see {@link
 * io.lakestream.connectors.options.OptionErrorClass}), then reads the table's schema: the latest
 * one for a stream, the chosen version's for a bounded read.
 *
 * <pre>{@code
 * DeltaSource source = DeltaSourceBuilder.forTable("s3a://lake/orders")
 *     .name("orders-delta")
 *     .options(Map.of("maxFilesPerTrigger", "100", "skipChangeCommits", "true"))
 *     .query(query)
 *     .build();
 * }</pre>
 */
public final class DeltaSourceBuilder extends CheckedOptionsBuilder<DeltaSourceBuilder> {
  private DeltaSourceBuilder(String path) {
    super(path);
  }

  /** A source reading the Delta table at {@code path} (local path or URI). */
  public static DeltaSourceBuilder forTable(String path) {
    return new DeltaSourceBuilder(path);
  }

  /**
   * Checks the name ({@code CONNECTOR_NAME_MISSING}) and the options against {@link
   * DeltaSourceOptions#CATALOG} ({@link io.lakestream.api.error.LakestreamException} naming the
   * option).
   */
  public void sanityCheck() {
    checkOptions("Delta source", DeltaSourceOptions.CATALOG);
  }

  /**
   * Checks the options and reads the table's schema.
   *
   * @throws io.lakestream.api.error.LakestreamException for a bad option
   * @throws DeltaTableException if there is no table, the chosen version or timestamp is not in its
   *     history, or {@code startingVersion} is past the latest version
   */
  public DeltaSource build() {
    sanityCheck();
    DeltaTable table = DeltaTable.forPath(path, hadoopConf);
    DeltaTableReader reader = new DeltaTableReader(table);
    long bounded = -1;
    Snapshot snapshot;
    if (options.getOptional(DeltaSourceOptions.VERSION_AS_OF).isPresent()) {
      bounded = options.get(DeltaSourceOptions.VERSION_AS_OF);
      snapshot = reader.snapshotAtVersion(bounded);
    } else if (options.getOptional(DeltaSourceOptions.TIMESTAMP_AS_OF).isPresent()) {
      bounded = reader.versionAsOf(Instant.parse(options.get(DeltaSourceOptions.TIMESTAMP_AS_OF)));
      snapshot = reader.snapshotAtVersion(bounded);
    } else {
      snapshot =
          table
              .latestSnapshot()
              .orElseThrow(
                  () ->
                      new DeltaTableException(
                          DeltaErrorClass.DELTA_TABLE_NOT_FOUND,
                          "No Delta table at " + table.path()));
    }
    String starting = options.get(DeltaSourceOptions.STARTING_VERSION);
    long startingVersion =
        starting == null
            ? DeltaSource.SNAPSHOT
            : starting.equals("latest") ? DeltaSource.LATEST : Long.parseLong(starting);
    if (startingVersion > snapshot.getVersion()) {
      throw new DeltaTableException(
          DeltaErrorClass.DELTA_INVALID_VERSION_RANGE,
          "Delta source option startingVersion="
              + startingVersion
              + " is past the latest version "
              + snapshot.getVersion()
              + " of "
              + table.path()
              + "; use 'latest' to read only versions committed from now on");
    }
    String mapping = snapshot.getTableProperties().get("delta.columnMapping.mode");
    if (mapping != null && !mapping.equals("none")) {
      throw new DeltaTableException(
          DeltaErrorClass.DELTA_UNSUPPORTED_FEATURE,
          "The Delta table at "
              + table.path()
              + " uses column mapping (delta.columnMapping.mode="
              + mapping
              + "), which the Delta source does not read yet");
    }
    return new DeltaSource(
        name,
        table,
        snapshot.getSchema().toJson(),
        snapshot.getPartitionColumnNames(),
        rowType(snapshot),
        startingVersion,
        bounded,
        options.get(DeltaSourceOptions.MAX_FILES_PER_TRIGGER),
        options.getOptional(DeltaSourceOptions.MAX_BYTES_PER_TRIGGER).orElse(0L),
        options.get(DeltaSourceOptions.SKIP_CHANGE_COMMITS),
        options.get(DeltaSourceOptions.IGNORE_DELETES),
        options.get(DeltaSourceOptions.POLL_INTERVAL).toMillis(),
        query);
  }

  private RowTypeInfo rowType(Snapshot snapshot) {
    List<TypeInformation<?>> types = new ArrayList<>();
    List<String> names = new ArrayList<>();
    for (StructField field : snapshot.getSchema().fields()) {
      names.add(field.getName());
      types.add(typeOf(field, snapshot.getPath()));
    }
    return new RowTypeInfo(types.toArray(new TypeInformation<?>[0]), names.toArray(new String[0]));
  }

  private static TypeInformation<?> typeOf(StructField field, String table) {
    DataType type = field.getDataType();
    if (type instanceof StringType) {
      return Types.STRING;
    } else if (type instanceof LongType) {
      return Types.LONG;
    } else if (type instanceof IntegerType) {
      return Types.INT;
    } else if (type instanceof ShortType) {
      return Types.SHORT;
    } else if (type instanceof ByteType) {
      return Types.BYTE;
    } else if (type instanceof DoubleType) {
      return Types.DOUBLE;
    } else if (type instanceof FloatType) {
      return Types.FLOAT;
    } else if (type instanceof BooleanType) {
      return Types.BOOLEAN;
    } else if (type instanceof DecimalType) {
      return Types.BIG_DEC;
    } else if (type instanceof TimestampType) {
      return Types.INSTANT;
    } else if (type instanceof TimestampNTZType) {
      return Types.LOCAL_DATE_TIME;
    } else if (type instanceof DateType) {
      return Types.LOCAL_DATE;
    } else if (type instanceof BinaryType) {
      return Types.PRIMITIVE_ARRAY(Types.BYTE);
    }
    throw new DeltaTableException(
        DeltaErrorClass.DELTA_UNSUPPORTED_FEATURE,
        "Column '"
            + field.getName()
            + "' of the Delta table at "
            + table
            + " is "
            + type
            + ", which the Delta source does not read (only primitive columns)");
  }
}
