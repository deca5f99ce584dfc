package io.lakestream.connectors.jdbc.source;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.jdbc.JdbcColumns;
import io.lakestream.connectors.jdbc.JdbcRecord;
import io.lakestream.connectors.jdbc.JdbcSourceConfig;
import io.lakestream.connectors.jdbc.JdbcSourceOptions;
import io.lakestream.connectors.jdbc.source.enumerator.JdbcEnumerator;
import io.lakestream.connectors.jdbc.source.enumerator.JdbcEnumeratorState;
import io.lakestream.connectors.jdbc.source.enumerator.JdbcEnumeratorStateSerializer;
import io.lakestream.connectors.jdbc.source.reader.JdbcPartitionReader;
import io.lakestream.connectors.jdbc.source.split.JdbcPartitionSplit;
import io.lakestream.connectors.jdbc.source.split.JdbcPartitionSplitSerializer;
import io.lakestream.connectors.schema.RowSchema;
import io.lakestream.connectors.source.EpochPositions;
import io.lakestream.state.StateErrorClass;
import io.lakestream.state.query.DescribedSource;
import io.lakestream.state.query.QueryContext;
import java.util.Map;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.types.Row;

/**
 * A bounded JDBC read as a Flink source: the partitions of {@link JdbcSourceConfig#splits()}, each
 * emitted whole and followed by its end ({@link JdbcRecord}). Create it with {@link #create}, which
 * validates the options and reads the relation's columns before the job starts.
 *
 * <p>Outside a lakestream query the source is bounded (the job finishes after the last partition).
 * In a query it stays open until the query's availableNow runner stops it, having been told that
 * every partition was emitted (so the query can stop with a final checkpoint).
 *
 * <p>Exactly-once: partitions not yet ended are in the checkpoint and are read again from their
 * first row after a restore; a partition's end is emitted once per attempt, after all its rows. A
 * restore with a different partition count fails with {@code INCOMPATIBLE_RESTART}. Records are
 * typed as a generic {@link JdbcRecord} (not for state): chain the writer to the source.
 */
@PublicEvolving
public final class JdbcSource
    implements Source<Row, JdbcPartitionSplit, JdbcEnumeratorState>,
        ResultTypeQueryable<Row>,
        DescribedSource {
  private static final long serialVersionUID = 1L;

  private final String name;
  private final JdbcSourceConfig config;
  private final RowSchema schema;
  private final QueryContext query;

  private JdbcSource(String name, JdbcSourceConfig config, RowSchema schema, QueryContext query) {
    this.name = name;
    this.config = config;
    this.schema = schema;
    this.query = query;
  }

  /**
   * A source for {@code options} (see {@link JdbcSourceOptions}), its columns read from the
   * database now.
   *
   * @param name the source's name (its uid)
   * @param query the query it runs in, or null for a plain bounded job
   * @throws LakestreamException for invalid options, a database that cannot be reached or a
   *     relation that cannot be read
   */
  public static JdbcSource create(String name, Map<String, String> options, QueryContext query) {
    JdbcSourceConfig config = JdbcSourceOptions.parse(options);
    return new JdbcSource(name, config, JdbcColumns.resolve(config), query);
  }

  /** The columns of every row, in order. */
  public RowSchema schema() {
    return schema;
  }

  /** The validated read. */
  public JdbcSourceConfig config() {
    return config;
  }

  @Override
  public Boundedness getBoundedness() {
    return query == null ? Boundedness.BOUNDED : Boundedness.CONTINUOUS_UNBOUNDED;
  }

  @Override
  public SourceReader<Row, JdbcPartitionSplit> createReader(SourceReaderContext context) {
    return new JdbcPartitionReader(
        context, config, schema, query == null, JdbcPartitionReader.DEFAULT_ROWS_PER_POLL);
  }

  @Override
  public SplitEnumerator<JdbcPartitionSplit, JdbcEnumeratorState> createEnumerator(
      SplitEnumeratorContext<JdbcPartitionSplit> context) {
    return restoreEnumerator(
        context, new JdbcEnumeratorState(config.splits().size(), config.splits()));
  }

  @Override
  public SplitEnumerator<JdbcPartitionSplit, JdbcEnumeratorState> restoreEnumerator(
      SplitEnumeratorContext<JdbcPartitionSplit> context, JdbcEnumeratorState checkpoint) {
    int partitions = config.splits().size();
    if (checkpoint.partitions() != partitions) {
      throw new LakestreamException(
          StateErrorClass.INCOMPATIBLE_RESTART,
          "JDBC source '"
              + name
              + "' was started with "
              + checkpoint.partitions()
              + " partitions and cannot continue with "
              + partitions
              + ": restore the options partitionColumn, lowerBound, upperBound and numPartitions"
              + " of the first run, or use a new checkpoint location");
    }
    return new JdbcEnumerator(context, checkpoint, new EpochPositions(query, name));
  }

  @Override
  public SimpleVersionedSerializer<JdbcPartitionSplit> getSplitSerializer() {
    return new JdbcPartitionSplitSerializer();
  }

  @Override
  public SimpleVersionedSerializer<JdbcEnumeratorState> getEnumeratorCheckpointSerializer() {
    return new JdbcEnumeratorStateSerializer();
  }

  @Override
  public TypeInformation<Row> getProducedType() {
    return JdbcRecord.typeInfo(schema);
  }

  @Override
  public String sourceType() {
    return "jdbc";
  }

  @Override
  public String sourceTarget() {
    return config.describe() + " (" + config.splits().size() + " partitions)";
  }

  @Override
  public boolean supportsAvailableNow() {
    return true;
  }

  public String name() {
    return name;
  }
}
