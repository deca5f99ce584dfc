package io.lakestream.connectors.kafka.source.event;

import io.lakestream.api.annotation.Internal;
import java.util.Map;
import org.apache.flink.api.connector.source.SourceEvent;

/**
 * Enumerator to reader, in an availableNow run: each partition's latest offset captured when the
 * run started. The reader reads no further and reports a split caught up when it gets there.
 */
@Internal
public record RunEnds(Map<String, Long> endOffsets) implements SourceEvent {
  public RunEnds {
    endOffsets = Map.copyOf(endOffsets);
  }
}
