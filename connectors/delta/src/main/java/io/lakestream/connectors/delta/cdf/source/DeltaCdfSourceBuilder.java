package io.lakestream.connectors.delta.cdf.source;

import io.delta.kernel.Snapshot;
import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.connectors.delta.DeltaColumnChanges;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableException;
import io.lakestream.connectors.delta.cdf.DeltaChangeFileReader;
import io.lakestream.connectors.delta.cdf.DeltaChangeLog;
import io.lakestream.connectors.delta.source.DeltaStreamSourceBuilder;
import io.lakestream.connectors.options.OptionErrorClass;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.typeutils.RowTypeInfo;

/**
 * Builds a {@link DeltaCdfSource} from Spark-compatible options ({@link DeltaCdfSourceOptions}).
 * {@link #build()} runs {@link #sanityCheck()} (unknown options and bad values fail with a {@link
 * io.lakestream.api.error.LakestreamException} naming the option and listing the valid ones), then
 * reads the table's latest schema and checks, eagerly, that the change data feed is enabled at the
 * starting version.
 *
 * <pre>{@code
 * DeltaCdfSource source = DeltaCdfSourceBuilder.forTable("s3a://lake/silver")
 *     .name("silver-cdf")
 *     .options(Map.of("startingVersion", "12", "maxFilesPerTrigger", "100"))
 *     .query(query)
 *     .build();
 * }</pre>
 */
@PublicEvolving
public final class DeltaCdfSourceBuilder extends DeltaStreamSourceBuilder<DeltaCdfSourceBuilder> {
  private DeltaCdfSourceBuilder(String path) {
    super(
        path,
        "Delta CDF source",
        DeltaCdfSourceOptions.MAX_FILES_PER_TRIGGER,
        DeltaCdfSourceOptions.MAX_BYTES_PER_TRIGGER,
        DeltaCdfSourceOptions.POLL_INTERVAL);
  }

  /** A source reading the change data feed of the Delta table at {@code path}. */
  public static DeltaCdfSourceBuilder forTable(String path) {
    return new DeltaCdfSourceBuilder(path);
  }

  /**
   * Checks the name ({@link IllegalArgumentException}) and the options against {@link
   * DeltaCdfSourceOptions#CATALOG} ({@link io.lakestream.api.error.LakestreamException} naming the
   * option).
   */
  public void sanityCheck() {
    checkOptions("Delta CDF source", DeltaCdfSourceOptions.CATALOG);
    if (!options.get(DeltaCdfSourceOptions.READ_CHANGE_FEED)) {
      throw DeltaCdfSourceOptions.CATALOG.failure(
          OptionErrorClass.INVALID_OPTION_VALUE,
          DeltaCdfSourceOptions.READ_CHANGE_FEED.key(),
          "option readChangeFeed=false: this source only reads the change data feed; use"
              + " DeltaSourceBuilder for a plain streaming read of the table");
    }
  }

  /**
   * Checks the options and the table.
   *
   * @throws io.lakestream.api.error.LakestreamException for a bad option
   * @throws DeltaTableException (or {@link
   *     io.lakestream.connectors.delta.cdf.ChangeDataFeedNotEnabledException} naming {@code
   *     delta.enableChangeDataFeed}) if there is no table, {@code startingVersion} is past the
   *     latest version, or the change data feed is not enabled at the starting (or latest) version
   */
  public DeltaCdfSource build() {
    sanityCheck();
    DeltaTable table = DeltaTable.forPath(path, hadoopConf);
    Snapshot snapshot = latestSnapshot(table);
    // typed as the Delta source types the table's columns
    RowTypeInfo tableType = tableRowType(table, snapshot);
    long latest = snapshot.getVersion();
    long starting =
        startingVersion(
            DeltaCdfSourceOptions.STARTING_VERSION,
            DeltaCdfSourceOptions.STARTING_TIMESTAMP,
            table);
    checkStartingVersion(table, starting, latest);
    long check = starting < 0 ? latest : starting; // latest, or the snapshot's version
    DeltaColumnChanges followed =
        new DeltaColumnChanges(
            options.get(DeltaCdfSourceOptions.ALLOW_SOURCE_COLUMN_RENAME),
            options.get(DeltaCdfSourceOptions.ALLOW_SOURCE_COLUMN_DROP));
    new DeltaChangeLog(table, snapshot.getSchema().toJson(), latest, followed)
        .changeFiles(check, check);
    return new DeltaCdfSource(
        settings(table, snapshot, withMetadataColumns(tableType)), starting, followed);
  }

  /**
   * The type of the change rows of {@code snapshot} of {@code table}, as a {@link DeltaCdfSource}
   * of that schema produces them: the table's columns, then the metadata columns.
   *
   * @throws DeltaTableException if a column has a type the source does not read
   */
  public static RowTypeInfo changeRowType(DeltaTable table, Snapshot snapshot) {
    return withMetadataColumns(tableRowType(table, snapshot));
  }

  private static RowTypeInfo withMetadataColumns(RowTypeInfo table) {
    List<TypeInformation<?>> types = new ArrayList<>(List.of(table.getFieldTypes()));
    List<String> names = new ArrayList<>(List.of(table.getFieldNames()));
    types.add(Types.STRING);
    types.add(Types.LONG);
    types.add(Types.INSTANT);
    names.addAll(DeltaChangeFileReader.METADATA_COLUMNS);
    return new RowTypeInfo(types.toArray(new TypeInformation<?>[0]), names.toArray(new String[0]));
  }
}
