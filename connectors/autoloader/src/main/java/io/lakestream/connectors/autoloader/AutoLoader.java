package io.lakestream.connectors.autoloader;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.connectors.autoloader.clean.SourceCleaner;
import io.lakestream.connectors.autoloader.discovery.DiscoveredFile;
import io.lakestream.connectors.autoloader.format.FileRowReader;
import io.lakestream.connectors.autoloader.ledger.FileLedgerFunction;
import io.lakestream.connectors.autoloader.ledger.FileLedgerOperator;
import io.lakestream.connectors.autoloader.ledger.FileMetadata;
import io.lakestream.connectors.autoloader.schema.AutoLoaderSchema;
import io.lakestream.connectors.autoloader.source.FileDiscoverySource;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.api.java.typeutils.RowTypeInfo;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.types.Row;

/**
 * A built Auto Loader stream: {@link #stream} adds the discovery source (uid {@code name}) and the
 * keyed file ledger that reads each file once (uid {@code name + "-ledger"}) to a job and returns
 * the rows, typed by {@link #rowType()}. Build with {@link AutoLoaderBuilder}.
 */
@PublicEvolving
public final class AutoLoader {
  private final String name;
  private final FileDiscoverySource source;
  private final FileRowReader reader;
  private final AutoLoaderSchema schema;
  private final long schemaVersion;
  private final SourceCleaner cleaner;
  private final long maxFileAgeMillis;

  AutoLoader(
      String name,
      FileDiscoverySource source,
      FileRowReader reader,
      AutoLoaderSchema schema,
      long schemaVersion,
      SourceCleaner cleaner,
      long maxFileAgeMillis) {
    this.cleaner = cleaner;
    this.maxFileAgeMillis = maxFileAgeMillis;
    this.name = name;
    this.source = source;
    this.reader = reader;
    this.schema = schema;
    this.schemaVersion = schemaVersion;
  }

  /**
   * Adds the source and the ledger to {@code env}; the returned stream carries the rows. The source
   * lists at most once per half of {@code env}'s checkpoint interval (set it before).
   */
  public DataStream<Row> stream(StreamExecutionEnvironment env) {
    return stream(env, false);
  }

  /**
   * {@link #stream}, each row followed by the {@link FileMetadata} fields of its file (typed by
   * {@link #rowTypeWithFileMetadata()}). The state is the same as {@link #stream}'s: a query can
   * switch between the two across a restart.
   */
  public DataStream<Row> streamWithFileMetadata(StreamExecutionEnvironment env) {
    return stream(env, true);
  }

  private DataStream<Row> stream(StreamExecutionEnvironment env, boolean withFileMetadata) {
    FileDiscoverySource paced =
        source.forCheckpointInterval(env.getCheckpointConfig().getCheckpointInterval());
    return env.fromSource(paced, WatermarkStrategy.noWatermarks(), name)
        .uid(name)
        .keyBy(new FileKey(), Types.STRING)
        .transform(
            name + " file ledger",
            withFileMetadata ? rowTypeWithFileMetadata() : rowType(),
            new FileLedgerOperator(
                new FileLedgerFunction(reader, cleaner, withFileMetadata, maxFileAgeMillis),
                source.query(),
                name))
        .uid(name + "-ledger");
  }

  /** The discovery source alone (its uid must be {@link #name()}). */
  public FileDiscoverySource source() {
    return source;
  }

  public String name() {
    return name;
  }

  /** The schema rows have in this run. */
  public AutoLoaderSchema schema() {
    return schema;
  }

  /** The schema's version in the schema history, or -1 for a given schema. */
  public long schemaVersion() {
    return schemaVersion;
  }

  public RowTypeInfo rowType() {
    return schema.rowType();
  }

  /**
   * {@link #rowType()} followed by the {@link FileMetadata} fields, named {@code
   * _metadata_file_path} and so on.
   */
  public RowTypeInfo rowTypeWithFileMetadata() {
    RowTypeInfo data = rowType();
    List<TypeInformation<?>> types = new ArrayList<>(List.of(data.getFieldTypes()));
    List<String> names = new ArrayList<>(List.of(data.getFieldNames()));
    for (FileMetadata field : FileMetadata.FIELDS) {
      types.add(field.type());
      names.add("_metadata_" + field.field());
    }
    return new RowTypeInfo(types.toArray(new TypeInformation<?>[0]), names.toArray(new String[0]));
  }

  /** Keys files by their key (path relative to the input directory). */
  static final class FileKey implements KeySelector<DiscoveredFile, String> {
    private static final long serialVersionUID = 1L;

    @Override
    public String getKey(DiscoveredFile file) {
      return file.key;
    }
  }
}
