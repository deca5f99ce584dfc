package io.lakestream.connectors.kafka.source.event;

import java.util.Map;
import org.apache.flink.api.connector.source.SourceEvent;

/**
 * Enumerator to reader, in an availableNow run: each partition's latest offset captured when the
 * run started. The reader reads no further and reports a split caught up when it gets there.
 */
public record RunEnds(Map<String, Long> endOffsets) implements SourceEvent {
  public RunEnds {
    endOffsets = Map.copyOf(endOffsets);
  }
}
