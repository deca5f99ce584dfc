package io.lakestream.connectors.kinesis.source.enumerator;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.kinesis.source.split.KinesisShardSplit;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The enumerator's checkpoint. Shards handed to a reader are in that reader's state (and named in
 * {@code assigned}); shards read to their end are in {@code finished}; shards found but not handed
 * out yet (waiting for their parents, or for their reader) are in {@code pending}.
 *
 * @param assigned shards handed to a reader and not known to be finished
 * @param finished closed shards read to their end
 * @param pending shards not handed out yet
 */
@Internal
public record KinesisEnumeratorState(
    Set<String> assigned, Set<String> finished, List<KinesisShardSplit> pending) {
  public KinesisEnumeratorState {
    assigned = new TreeSet<>(assigned);
    finished = new TreeSet<>(finished);
    pending = List.copyOf(pending);
  }

  /** The state of a query's first start: nothing found yet. */
  public static KinesisEnumeratorState initial() {
    return new KinesisEnumeratorState(Set.of(), Set.of(), List.of());
  }
}
