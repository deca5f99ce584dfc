package io.lakestream.connectors.kafka.source.event;

import io.lakestream.api.annotation.Internal;
import java.util.Map;
import org.apache.flink.api.connector.source.SourceEvent;

/**
 * Enumerator to reader: in the epoch that follows the reader's snapshot for {@code
 * afterCheckpoint}, read each split up to (excluding) the given offset. The enumerator computes it
 * from all readers' positions at that snapshot, so the epoch never exceeds {@code
 * maxOffsetsPerTrigger} in total. A reader ignores a grant for any other snapshot.
 */
@Internal
public record EpochGrant(long afterCheckpoint, Map<String, Long> endOffsets)
    implements SourceEvent {
  public EpochGrant {
    endOffsets = Map.copyOf(endOffsets);
  }
}
