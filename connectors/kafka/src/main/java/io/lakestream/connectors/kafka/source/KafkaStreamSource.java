package io.lakestream.connectors.kafka.source;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.connectors.kafka.KafkaRecord;
import io.lakestream.connectors.kafka.source.enumerator.KafkaEnumeratorState;
import io.lakestream.connectors.kafka.source.enumerator.KafkaEnumeratorStateSerializer;
import io.lakestream.connectors.kafka.source.enumerator.KafkaStreamEnumerator;
import io.lakestream.connectors.kafka.source.reader.KafkaStreamReader;
import io.lakestream.connectors.kafka.source.split.KafkaPartitionSplit;
import io.lakestream.connectors.kafka.source.split.KafkaPartitionSplitSerializer;
import io.lakestream.connectors.source.EpochPositions;
import io.lakestream.state.query.DescribedSource;
import io.lakestream.state.query.QueryContext;
import java.util.List;
import java.util.Set;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * A Kafka source with Spark Structured Streaming semantics (see {@link KafkaSourceOptions}): one
 * split per partition, {@code startingOffsets} for new queries only, per-epoch {@code
 * maxOffsetsPerTrigger}/{@code minOffsetsPerTrigger}, availableNow, {@code failOnDataLoss}, offsets
 * committed to the consumer group on every completed checkpoint, and per-epoch offsets and backlog
 * metrics in the checkpoint location. Build with {@link KafkaSourceBuilder}.
 *
 * <p>Never finishes (an availableNow run reports caught-up and is stopped with a savepoint by the
 * runner). Exactly-once: positions are checkpointed with the readers.
 */
@PublicEvolving
public final class KafkaStreamSource
    implements Source<KafkaRecord, KafkaPartitionSplit, KafkaEnumeratorState>,
        ResultTypeQueryable<KafkaRecord>,
        DescribedSource {
  private static final long serialVersionUID = 1L;

  private final String name;
  private final KafkaSourceConfig config;
  private final QueryContext query;

  KafkaStreamSource(String name, KafkaSourceConfig config, QueryContext query) {
    this.name = name;
    this.config = config;
    this.query = query;
  }

  @Override
  public Boundedness getBoundedness() {
    return Boundedness.CONTINUOUS_UNBOUNDED;
  }

  @Override
  public SourceReader<KafkaRecord, KafkaPartitionSplit> createReader(SourceReaderContext context) {
    return new KafkaStreamReader(
        context,
        config,
        name,
        groupId(),
        query != null && query.availableNow(),
        query != null && query.ignoreRateLimits());
  }

  /** The consumer group offsets are committed to. */
  public String groupId() {
    return config.groupId(query == null ? "no-query" : query.queryId(), name);
  }

  @Override
  public SplitEnumerator<KafkaPartitionSplit, KafkaEnumeratorState> createEnumerator(
      SplitEnumeratorContext<KafkaPartitionSplit> context) {
    return enumerator(context, new KafkaEnumeratorState(List.of(), Set.of()), true);
  }

  @Override
  public SplitEnumerator<KafkaPartitionSplit, KafkaEnumeratorState> restoreEnumerator(
      SplitEnumeratorContext<KafkaPartitionSplit> context, KafkaEnumeratorState checkpoint) {
    return enumerator(context, checkpoint, false);
  }

  private KafkaStreamEnumerator enumerator(
      SplitEnumeratorContext<KafkaPartitionSplit> context,
      KafkaEnumeratorState state,
      boolean newQuery) {
    return new KafkaStreamEnumerator(
        context,
        config,
        name,
        state,
        newQuery,
        query != null && query.availableNow(),
        query != null && query.ignoreRateLimits(),
        new EpochPositions(query, name));
  }

  @Override
  public SimpleVersionedSerializer<KafkaPartitionSplit> getSplitSerializer() {
    return new KafkaPartitionSplitSerializer();
  }

  @Override
  public SimpleVersionedSerializer<KafkaEnumeratorState> getEnumeratorCheckpointSerializer() {
    return new KafkaEnumeratorStateSerializer();
  }

  @Override
  public TypeInformation<KafkaRecord> getProducedType() {
    return TypeInformation.of(KafkaRecord.class);
  }

  @Override
  public String sourceType() {
    return "kafka";
  }

  @Override
  public String sourceTarget() {
    return config.topics().toString();
  }

  @Override
  public boolean supportsAvailableNow() {
    return true;
  }

  @Override
  public boolean limitsEpochs() {
    return config.rateLimited();
  }

  public String name() {
    return name;
  }

  public KafkaSourceConfig config() {
    return config;
  }
}
