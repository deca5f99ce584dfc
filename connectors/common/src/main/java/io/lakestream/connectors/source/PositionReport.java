package io.lakestream.connectors.source;

import io.lakestream.api.annotation.Internal;
import java.util.Map;
import org.apache.flink.api.connector.source.SourceEvent;

/**
 * Reader to enumerator: the reader's positions (split id to next offset) in its snapshot for {@code
 * checkpointId}, so the enumerator can record the epoch's offsets once the checkpoint completes.
 */
@Internal
public record PositionReport(long checkpointId, Map<String, Long> positions)
    implements SourceEvent {
  public PositionReport {
    positions = Map.copyOf(positions);
  }
}
