package io.lakestream.connectors.kinesis.source.split;

import io.lakestream.api.annotation.Internal;
import java.util.List;
import org.apache.flink.api.connector.source.SourceSplit;

/**
 * One shard and where its reading continues: after {@code afterSequence} once a record was read,
 * else from {@code startMillis} (AT_TIMESTAMP) or, when that is negative, from the shard's start
 * (TRIM_HORIZON). A finished split was read to the end of its closed shard; readers keep it in
 * their state so the enumerator learns of it again after a restore.
 *
 * @param shardId the shard
 * @param parents the shards it was split or merged from (read before it), possibly empty
 * @param afterSequence the sequence number of the last record emitted, or null
 * @param startMillis the AT_TIMESTAMP start when nothing was read yet; negative: TRIM_HORIZON
 * @param recordsRead records emitted from the shard so far (its position in progress reports)
 * @param finished the shard is closed and was read to its end
 */
@Internal
public record KinesisShardSplit(
    String shardId,
    List<String> parents,
    String afterSequence,
    long startMillis,
    long recordsRead,
    boolean finished)
    implements SourceSplit {
  public KinesisShardSplit {
    parents = List.copyOf(parents);
  }

  /** A shard not read yet. */
  public static KinesisShardSplit fresh(String shardId, List<String> parents, long startMillis) {
    return new KinesisShardSplit(shardId, parents, null, startMillis, 0, false);
  }

  /** This split after emitting the record {@code sequence}. */
  public KinesisShardSplit after(String sequence) {
    return new KinesisShardSplit(shardId, parents, sequence, startMillis, recordsRead + 1, false);
  }

  /** This split read to the end of its closed shard. */
  public KinesisShardSplit asFinished() {
    return new KinesisShardSplit(shardId, parents, afterSequence, startMillis, recordsRead, true);
  }

  @Override
  public String splitId() {
    return shardId;
  }
}
