package io.lakestream.connectors.delta.source;

import io.delta.kernel.Snapshot;
import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableException;
import io.lakestream.connectors.delta.DeltaTableReader;
import java.time.Instant;

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
@PublicEvolving
public final class DeltaSourceBuilder extends DeltaStreamSourceBuilder<DeltaSourceBuilder> {
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
   * Checks the name ({@link IllegalArgumentException}) and the options against {@link
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
      snapshot = latestSnapshot(table);
    }
    long startingVersion =
        startingVersion(
            DeltaSourceOptions.STARTING_VERSION, DeltaSourceOptions.STARTING_TIMESTAMP, table);
    checkStartingVersion(table, startingVersion, snapshot.getVersion());
    return new DeltaSource(
        settings(table, snapshot, tableRowType(table, snapshot)),
        startingVersion,
        bounded,
        options.get(DeltaSourceOptions.SKIP_CHANGE_COMMITS),
        options.get(DeltaSourceOptions.IGNORE_DELETES));
  }
}
