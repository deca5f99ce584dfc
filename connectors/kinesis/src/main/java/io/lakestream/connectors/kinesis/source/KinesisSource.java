package io.lakestream.connectors.kinesis.source;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.connectors.kinesis.KinesisRecord;
import io.lakestream.connectors.kinesis.KinesisSourceConfig;
import io.lakestream.connectors.kinesis.KinesisSourceOptions;
import io.lakestream.connectors.kinesis.source.enumerator.KinesisEnumerator;
import io.lakestream.connectors.kinesis.source.enumerator.KinesisEnumeratorState;
import io.lakestream.connectors.kinesis.source.enumerator.KinesisEnumeratorStateSerializer;
import io.lakestream.connectors.kinesis.source.reader.KinesisShardReader;
import io.lakestream.connectors.kinesis.source.split.KinesisShardSplit;
import io.lakestream.connectors.kinesis.source.split.KinesisShardSplitSerializer;
import io.lakestream.connectors.source.EpochPositions;
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
 * A Kinesis data stream as an unbounded Flink source of {@link KinesisRecord} rows: each shard is a
 * split, read from its checkpointed sequence number after a restore, so with a sink that commits
 * with the checkpoints every record is written exactly once. After a reshard a child shard is read
 * only once its parents were read to their end, so each partition key's records stay in order.
 *
 * <p>In a lakestream query the progress records each epoch's records read per shard ({@code
 * offsets/N}); with the availableNow trigger each shard is read up to the records that arrived
 * before this source was created (the run's start), then the runner is told it caught up. Per-epoch
 * rate limit: option maxRecordsPerEpoch (ignored when the query ignores rate limits). With option
 * consumerMode efo the shards are read through an enhanced fan-out consumer, named by option
 * consumerName or else the query id. Create it with {@link #create}, which validates the options
 * first.
 */
@PublicEvolving
public final class KinesisSource
    implements Source<Row, KinesisShardSplit, KinesisEnumeratorState>,
        ResultTypeQueryable<Row>,
        DescribedSource {
  private static final long serialVersionUID = 1L;

  private final String name;
  private final KinesisSourceConfig config;
  private final QueryContext query;
  private final long runStartMillis;

  private KinesisSource(
      String name, KinesisSourceConfig config, QueryContext query, long runStartMillis) {
    this.name = name;
    this.config = config;
    this.query = query;
    this.runStartMillis = runStartMillis;
  }

  /**
   * A source for {@code options} (see {@link KinesisSourceOptions}).
   *
   * @param name the source's name (its uid)
   * @param query the query it runs in, or null outside a lakestream query
   * @throws io.lakestream.api.error.LakestreamException for invalid options
   */
  public static KinesisSource create(String name, Map<String, String> options, QueryContext query) {
    boolean availableNow = query != null && query.availableNow();
    KinesisSourceConfig config =
        KinesisSourceOptions.parse(options)
            .withDefaultConsumerName(query == null ? null : query.queryId());
    KinesisSourceConfig.FanOut fanOut = config.fanOut();
    if (fanOut != null && fanOut.consumerName() == null && fanOut.registeredId() == null) {
      throw KinesisSourceOptions.CATALOG.conflict(
          "consumerMode efo outside a lakestream query (no query id to name the consumer) needs"
              + " option consumerName or registeredConsumerId");
    }
    return new KinesisSource(
        name, config, query, availableNow ? System.currentTimeMillis() : Long.MAX_VALUE);
  }

  public String name() {
    return name;
  }

  public KinesisSourceConfig config() {
    return config;
  }

  @Override
  public Boundedness getBoundedness() {
    return Boundedness.CONTINUOUS_UNBOUNDED;
  }

  @Override
  public SourceReader<Row, KinesisShardSplit> createReader(SourceReaderContext context) {
    boolean limited = query == null || !query.ignoreRateLimits();
    return new KinesisShardReader(
        context, config, runStartMillis, limited ? config.maxRecordsPerEpoch() : Long.MAX_VALUE);
  }

  @Override
  public SplitEnumerator<KinesisShardSplit, KinesisEnumeratorState> createEnumerator(
      SplitEnumeratorContext<KinesisShardSplit> context) {
    return restoreEnumerator(context, KinesisEnumeratorState.initial());
  }

  @Override
  public SplitEnumerator<KinesisShardSplit, KinesisEnumeratorState> restoreEnumerator(
      SplitEnumeratorContext<KinesisShardSplit> context, KinesisEnumeratorState checkpoint) {
    return new KinesisEnumerator(
        context,
        config,
        checkpoint,
        new EpochPositions(query, name),
        runStartMillis != Long.MAX_VALUE);
  }

  @Override
  public SimpleVersionedSerializer<KinesisShardSplit> getSplitSerializer() {
    return new KinesisShardSplitSerializer();
  }

  @Override
  public SimpleVersionedSerializer<KinesisEnumeratorState> getEnumeratorCheckpointSerializer() {
    return new KinesisEnumeratorStateSerializer();
  }

  @Override
  public TypeInformation<Row> getProducedType() {
    return KinesisRecord.typeInfo();
  }

  @Override
  public String sourceType() {
    return "kinesis";
  }

  @Override
  public String sourceTarget() {
    return config.describe();
  }

  @Override
  public boolean supportsAvailableNow() {
    return true;
  }
}
