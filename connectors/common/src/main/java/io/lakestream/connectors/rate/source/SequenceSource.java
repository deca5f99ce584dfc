package io.lakestream.connectors.rate.source;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.rate.source.enumerator.SequenceEnumerator;
import io.lakestream.connectors.rate.source.enumerator.SequenceEnumeratorState;
import io.lakestream.connectors.rate.source.enumerator.SequenceEnumeratorStateSerializer;
import io.lakestream.connectors.rate.source.reader.SequenceReader;
import io.lakestream.connectors.rate.source.split.SequenceSplit;
import io.lakestream.connectors.rate.source.split.SequenceSplitSerializer;
import io.lakestream.connectors.source.EpochPositions;
import io.lakestream.connectors.source.ReplayedEpochs;
import io.lakestream.state.StateErrorClass;
import io.lakestream.state.query.DescribedSource;
import io.lakestream.state.query.QueryContext;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * Spark's {@code rate} source, replayable: rows {@code 0..rows-1} spread over a fixed number of
 * partitions that behave like Kafka partitions (offsets, per-epoch positions, end offsets). {@code
 * rows} is "what the topic holds"; raise it on a later run and the query continues where it left
 * off. Build with {@link RateSourceBuilder}.
 *
 * <p>Never finishes: at the end it idles, so a query can stop with a savepoint and resume. In an
 * availableNow run it reports when every partition reached the end. Exactly-once: positions are
 * checkpointed with the readers, and the generator is deterministic in the row index.
 */
@PublicEvolving
public final class SequenceSource<T>
    implements Source<T, SequenceSplit, SequenceEnumeratorState>,
        ResultTypeQueryable<T>,
        DescribedSource {
  private static final long serialVersionUID = 1L;

  private final String name;
  private final GeneratorFunction<Long, T> generator;
  private final TypeInformation<T> type;
  private final long rows;
  private final int partitions;
  private final long rowsPerSecond;
  private final long maxRowsPerTrigger;
  private final QueryContext query;

  SequenceSource(
      String name,
      GeneratorFunction<Long, T> generator,
      TypeInformation<T> type,
      long rows,
      int partitions,
      long rowsPerSecond,
      long maxRowsPerTrigger,
      QueryContext query) {
    this.name = name;
    this.generator = generator;
    this.type = type;
    this.rows = rows;
    this.partitions = partitions;
    this.rowsPerSecond = rowsPerSecond;
    this.maxRowsPerTrigger = maxRowsPerTrigger;
    this.query = query;
  }

  @Override
  public Boundedness getBoundedness() {
    return Boundedness.CONTINUOUS_UNBOUNDED;
  }

  @Override
  public SourceReader<T, SequenceSplit> createReader(SourceReaderContext context) {
    return new SequenceReader<>(
        context,
        generator,
        rows,
        partitions,
        rowsPerSecond,
        maxRowsPerTrigger,
        query != null && query.ignoreRateLimits(),
        new ReplayedEpochs(query == null ? null : query.replay(), name),
        SequenceReader.DEFAULT_ROWS_PER_POLL);
  }

  @Override
  public SplitEnumerator<SequenceSplit, SequenceEnumeratorState> createEnumerator(
      SplitEnumeratorContext<SequenceSplit> context) {
    List<SequenceSplit> splits = new ArrayList<>();
    for (int p = 0; p < partitions; p++) {
      splits.add(new SequenceSplit(p, 0));
    }
    return restoreEnumerator(context, new SequenceEnumeratorState(partitions, splits));
  }

  @Override
  public SplitEnumerator<SequenceSplit, SequenceEnumeratorState> restoreEnumerator(
      SplitEnumeratorContext<SequenceSplit> context, SequenceEnumeratorState checkpoint) {
    if (checkpoint.partitions() != partitions) {
      throw new LakestreamException(
          StateErrorClass.INCOMPATIBLE_RESTART,
          "rate source '"
              + name
              + "' was created with "
              + checkpoint.partitions()
              + " partitions and cannot change to "
              + partitions
              + " on restart: set numPartitions back to "
              + checkpoint.partitions()
              + " or use a new checkpoint location");
    }
    return new SequenceEnumerator(context, checkpoint, rows, new EpochPositions(query, name));
  }

  @Override
  public SimpleVersionedSerializer<SequenceSplit> getSplitSerializer() {
    return new SequenceSplitSerializer();
  }

  @Override
  public SimpleVersionedSerializer<SequenceEnumeratorState> getEnumeratorCheckpointSerializer() {
    return new SequenceEnumeratorStateSerializer();
  }

  @Override
  public TypeInformation<T> getProducedType() {
    return type;
  }

  @Override
  public String sourceType() {
    return "rate";
  }

  @Override
  public String sourceTarget() {
    return name + " (" + partitions + " partitions)";
  }

  @Override
  public boolean supportsAvailableNow() {
    return true;
  }

  @Override
  public boolean limitsEpochs() {
    return maxRowsPerTrigger > 0;
  }

  @Override
  public boolean supportsExactReplay() {
    return true;
  }

  public String name() {
    return name;
  }
}
