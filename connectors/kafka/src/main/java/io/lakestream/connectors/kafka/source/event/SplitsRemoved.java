package io.lakestream.connectors.kafka.source.event;

import io.lakestream.api.annotation.Internal;
import java.util.Set;
import org.apache.flink.api.connector.source.SourceEvent;

/**
 * Enumerator to reader: these partitions' topic was deleted and {@code failOnDataLoss=false}; stop
 * reading them.
 */
@Internal
public record SplitsRemoved(Set<String> splitIds) implements SourceEvent {
  public SplitsRemoved {
    splitIds = Set.copyOf(splitIds);
  }
}
