package io.lakestream.connectors.delta.source;

import io.delta.kernel.Snapshot;
import io.delta.kernel.types.ArrayType;
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
import io.delta.kernel.types.MapType;
import io.delta.kernel.types.ShortType;
import io.delta.kernel.types.StringType;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.delta.kernel.types.TimestampNTZType;
import io.delta.kernel.types.TimestampType;
import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.connectors.delta.DeltaErrorClass;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableException;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.connectors.delta.kernel.KernelColumnMapping;
import io.lakestream.connectors.options.Option;
import io.lakestream.connectors.source.CheckedOptionsBuilder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.typeutils.RowTypeInfo;

/**
 * What the builders of the Delta source and the Delta change data feed source share: the reading of
 * {@code startingVersion} and of the rate options ({@code maxFilesPerTrigger}, {@code
 * maxBytesPerTrigger}, {@code pollInterval}; their values are checked by each source's options
 * catalog), the typing of the table's columns (by their logical names, whatever the table's column
 * mapping; variant and geospatial columns are refused) and the {@link DeltaStreamSource.Settings} a
 * source is built with. Every failure message starts with the builder's label, e.g. {@code "Delta
 * CDF source option ..."}.
 *
 * @param <B> the concrete builder
 */
@PublicEvolving
public abstract class DeltaStreamSourceBuilder<B extends DeltaStreamSourceBuilder<B>>
    extends CheckedOptionsBuilder<B> {
  private final String label;
  private final Option<Integer> maxFilesPerTrigger;
  private final Option<Long> maxBytesPerTrigger;
  private final Option<Duration> pollInterval;

  /**
   * @param label the source in messages, e.g. {@code "Delta source"}
   * @param maxFilesPerTrigger the builder's {@code maxFilesPerTrigger} option (likewise the others)
   */
  protected DeltaStreamSourceBuilder(
      String path,
      String label,
      Option<Integer> maxFilesPerTrigger,
      Option<Long> maxBytesPerTrigger,
      Option<Duration> pollInterval) {
    super(path);
    this.label = label;
    this.maxFilesPerTrigger = maxFilesPerTrigger;
    this.maxBytesPerTrigger = maxBytesPerTrigger;
    this.pollInterval = pollInterval;
  }

  /**
   * The {@code startingVersion} option's value: a version, {@link DeltaStreamSource#LATEST} or,
   * when not set, {@link DeltaStreamSource#SNAPSHOT}.
   *
   * @throws IllegalArgumentException if it is neither a version number >= 0 nor {@code latest}
   */
  protected final long startingVersion(Option<String> option) {
    String starting = options.get(option);
    if (starting == null) {
      return DeltaStreamSource.SNAPSHOT;
    }
    if (starting.equals("latest")) {
      return DeltaStreamSource.LATEST;
    }
    try {
      long version = Long.parseLong(starting);
      if (version >= 0) {
        return version;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(
        label
            + " option startingVersion must be a version number >= 0 or 'latest', was '"
            + starting
            + "'");
  }

  /**
   * The version a stream starts at: the first committed at or after {@code startingTimestamp} if
   * set, else {@link #startingVersion(Option)}'s.
   *
   * @throws DeltaTableException if the timestamp is after the latest commit
   */
  protected final long startingVersion(
      Option<String> startingVersion, Option<String> startingTimestamp, DeltaTable table) {
    return options
        .getOptional(startingTimestamp)
        .map(
            text ->
                new DeltaTableReader(table)
                    .firstVersionAtOrAfter(
                        DeltaStreamOptions.parseTimestamp(text), startingTimestamp.key()))
        .orElseGet(() -> startingVersion(startingVersion));
  }

  /**
   * Checks that a stream starting at {@code startingVersion} starts within the table's history.
   *
   * @throws DeltaTableException if it is past {@code latest}
   */
  protected final void checkStartingVersion(DeltaTable table, long startingVersion, long latest) {
    if (startingVersion > latest) {
      throw new DeltaTableException(
          DeltaErrorClass.DELTA_INVALID_VERSION_RANGE,
          label
              + " option startingVersion="
              + startingVersion
              + " is past the latest version "
              + latest
              + " of "
              + table.path()
              + "; use 'latest' to read only versions committed from now on");
    }
  }

  /**
   * The latest snapshot of {@code table}.
   *
   * @throws DeltaTableException if there is no table or its log cannot be read
   */
  protected static Snapshot latestSnapshot(DeltaTable table) {
    return table
        .latestSnapshot()
        .orElseThrow(
            () ->
                new DeltaTableException(
                    DeltaErrorClass.DELTA_TABLE_NOT_FOUND, "No Delta table at " + table.path()));
  }

  /** The settings of a source of {@code snapshot}'s schema with rows of {@code rowType}. */
  protected final DeltaStreamSource.Settings settings(
      DeltaTable table, Snapshot snapshot, RowTypeInfo rowType) {
    return new DeltaStreamSource.Settings(
        name,
        table,
        snapshot.getSchema().toJson(),
        snapshot.getVersion(),
        snapshot.getPartitionColumnNames(),
        KernelColumnMapping.mode(snapshot.getTableProperties()),
        rowType,
        options.get(maxFilesPerTrigger),
        options.getOptional(maxBytesPerTrigger).orElse(0L),
        options.get(pollInterval).toMillis(),
        query);
  }

  /**
   * The row type of the table's columns in {@code snapshot}, in table order.
   *
   * @throws DeltaTableException if the table has a column the Delta source does not read (variant,
   *     geospatial); the message names it
   */
  protected static RowTypeInfo tableRowType(DeltaTable table, Snapshot snapshot) {
    return tableRowType(table, snapshot, snapshot.getSchema().fieldNames());
  }

  /**
   * The row type of the columns {@code columns} (as the schema spells them) of {@code snapshot}, in
   * that order; the table's other columns may have any type, as they are not read.
   *
   * @throws DeltaTableException if one of the columns is of a type the Delta source does not read
   *     (variant, geospatial); the message names it
   */
  protected static RowTypeInfo tableRowType(
      DeltaTable table, Snapshot snapshot, List<String> columns) {
    List<TypeInformation<?>> types = new ArrayList<>();
    for (String column : columns) {
      types.add(typeOf(snapshot.getSchema().get(column), snapshot.getPath()));
    }
    return new RowTypeInfo(
        types.toArray(new TypeInformation<?>[0]), columns.toArray(new String[0]));
  }

  private static TypeInformation<?> typeOf(StructField field, String table) {
    TypeInformation<?> type = typeOf(field.getDataType());
    if (type == null) {
      throw new DeltaTableException(
          DeltaErrorClass.DELTA_UNSUPPORTED_FEATURE,
          "Column '"
              + field.getName()
              + "' of the Delta table at "
              + table
              + " is "
              + field.getDataType()
              + ", which the Delta source does not read (variant and geospatial columns are not"
              + " read)");
    }
    return type;
  }

  /**
   * The Flink type of a Delta type's values, or null if the source does not read it. Arrays are
   * Java arrays of the element class (Flink's object array serializer takes null elements), maps
   * {@link java.util.Map}s, structs {@link org.apache.flink.types.Row}s.
   */
  private static TypeInformation<?> typeOf(DataType type) {
    if (type instanceof ArrayType array) {
      TypeInformation<?> element = typeOf(array.getElementType());
      return element == null ? null : Types.OBJECT_ARRAY(element);
    } else if (type instanceof MapType map) {
      TypeInformation<?> key = typeOf(map.getKeyType());
      TypeInformation<?> value = typeOf(map.getValueType());
      return key == null || value == null ? null : Types.MAP(key, value);
    } else if (type instanceof StructType struct) {
      TypeInformation<?>[] fields = new TypeInformation<?>[struct.length()];
      for (int f = 0; f < fields.length; f++) {
        fields[f] = typeOf(struct.at(f).getDataType());
        if (fields[f] == null) {
          return null;
        }
      }
      return Types.ROW_NAMED(struct.fieldNames().toArray(new String[0]), fields);
    }
    return primitiveTypeOf(type);
  }

  private static TypeInformation<?> primitiveTypeOf(DataType type) {
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
    return null;
  }
}
