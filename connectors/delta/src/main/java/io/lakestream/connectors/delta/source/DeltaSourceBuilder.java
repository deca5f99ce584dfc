package io.lakestream.connectors.delta.source;

import io.delta.kernel.Snapshot;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.delta.DeltaColumnChanges;
import io.lakestream.connectors.delta.DeltaErrorClass;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableException;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.connectors.delta.filter.DeltaFileSkipping;
import io.lakestream.connectors.delta.filter.DeltaFilter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Builds a {@link DeltaSource} from Spark-compatible options ({@link DeltaSourceOptions}; keys
 * ignore case). {@link #build()} runs {@link #sanityCheck()} (unknown options and bad values fail
 * with a {@link io.lakestream.api.error.LakestreamException} naming the option, see {@link
 * io.lakestream.connectors.options.OptionErrorClass}), then reads the table's schema: the latest
 * one for a stream, the chosen version's for a bounded read.
 *
 * <p>{@link #columns} chooses the columns rows hold (only they are read from the data files), and
 * {@link #filter} skips the data files none of whose rows can match: by their partition values and
 * the statistics of their {@code add} actions, for the initial snapshot, later versions and bounded
 * reads alike. Both are checked against the table's schema in {@link #build()} (an unknown column,
 * or a filter value of another type, fails with a {@link LakestreamException} of class {@code
 * DELTA_INVALID_SOURCE_SETTING} naming the column). Both may change when a query restarts from its
 * checkpoint: files admitted before keep being read as they were admitted, the new filter applies
 * to the files after the stream's position.
 *
 * <pre>{@code
 * DeltaSource source = DeltaSourceBuilder.forTable("s3a://lake/orders")
 *     .name("orders-delta")
 *     .options(Map.of("maxFilesPerTrigger", "100", "skipChangeCommits", "true"))
 *     .columns("order_id", "amount", "order_date")
 *     .filter(DeltaFilter.greaterThanOrEqual("order_date", LocalDate.of(2024, 5, 1)))
 *     .query(query)
 *     .build();
 * }</pre>
 */
@PublicEvolving
public final class DeltaSourceBuilder extends DeltaStreamSourceBuilder<DeltaSourceBuilder> {
  private List<String> columns;
  private DeltaFilter filter;

  private DeltaSourceBuilder(String path) {
    super(
        path,
        "Delta source",
        DeltaSourceOptions.MAX_FILES_PER_TRIGGER,
        DeltaSourceOptions.MAX_BYTES_PER_TRIGGER,
        DeltaSourceOptions.POLL_INTERVAL);
  }

  /** A source reading the Delta table at {@code path} (local path or URI). */
  public static DeltaSourceBuilder forTable(String path) {
    return new DeltaSourceBuilder(path);
  }

  /**
   * The columns rows hold, in this order (names ignore case, as in Delta); by default every column
   * of the table, in table order. Only these columns are read from the data files.
   */
  public DeltaSourceBuilder columns(String... columns) {
    this.columns = columns == null ? null : Arrays.asList(columns);
    return this;
  }

  /**
   * Skip the data files none of whose rows can match {@code filter} (null: read every file). Rows
   * of the files read are all emitted: filter them again downstream.
   */
  public DeltaSourceBuilder filter(DeltaFilter filter) {
    this.filter = filter;
    return this;
  }

  /**
   * Checks the name, the options against {@link DeltaSourceOptions#CATALOG} and the column list
   * (each a {@link io.lakestream.api.error.LakestreamException} naming the option or column).
   */
  public void sanityCheck() {
    checkOptions("Delta source", DeltaSourceOptions.CATALOG);
    if (columns != null) {
      checkColumnList();
    }
  }

  private void checkColumnList() {
    if (columns.isEmpty()) {
      throw invalid("The Delta source for " + path + " is given an empty column list");
    }
    Set<String> seen = new HashSet<>();
    for (String column : columns) {
      if (column == null || column.isBlank()) {
        throw invalid("The Delta source for " + path + " is given a blank column name");
      }
      if (!seen.add(column.toLowerCase(Locale.ROOT))) {
        throw invalid("The Delta source for " + path + " is given column '" + column + "' twice");
      }
    }
  }

  /** The chosen columns as {@code schema} spells them, in their order. */
  private List<String> chosenColumns(StructType schema) {
    if (columns == null) {
      return schema.fieldNames();
    }
    List<String> chosen = new ArrayList<>(columns.size());
    for (String column : columns) {
      chosen.add(
          schema.fields().stream()
              .map(StructField::getName)
              .filter(n -> n.equalsIgnoreCase(column))
              .findFirst()
              .orElseThrow(
                  () ->
                      invalid(
                          "The Delta source is to read column '"
                              + column
                              + "', which the Delta table at "
                              + path
                              + " does not have; its columns are "
                              + schema.fieldNames())));
    }
    return chosen;
  }

  private static LakestreamException invalid(String message) {
    return new LakestreamException(DeltaErrorClass.DELTA_INVALID_SOURCE_SETTING, message);
  }

  /**
   * Checks the options and reads the table's schema.
   *
   * @throws io.lakestream.api.error.LakestreamException for a bad option, ({@code
   *     DELTA_INVALID_SOURCE_SETTING}) for a chosen column the table lacks or a filter that does
   *     not fit its schema
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
      snapshot = latestSnapshot(table);
    }
    long startingVersion =
        startingVersion(
            DeltaSourceOptions.STARTING_VERSION, DeltaSourceOptions.STARTING_TIMESTAMP, table);
    checkStartingVersion(table, startingVersion, snapshot.getVersion());
    List<String> chosen = chosenColumns(snapshot.getSchema());
    // checks the filter against the schema now rather than when the job runs
    DeltaFileSkipping.of(
        filter, snapshot.getSchema(), snapshot.getPartitionColumnNames(), table.path());
    return new DeltaSource(
        settings(table, snapshot, tableRowType(table, snapshot, chosen)),
        new DeltaSource.Selection(chosen, filter),
        startingVersion,
        bounded,
        options.get(DeltaSourceOptions.SKIP_CHANGE_COMMITS),
        options.get(DeltaSourceOptions.IGNORE_DELETES),
        new DeltaColumnChanges(
            options.get(DeltaSourceOptions.ALLOW_SOURCE_COLUMN_RENAME),
            options.get(DeltaSourceOptions.ALLOW_SOURCE_COLUMN_DROP)));
  }
}
