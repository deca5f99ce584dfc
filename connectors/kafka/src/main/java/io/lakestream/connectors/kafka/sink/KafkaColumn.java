package io.lakestream.connectors.kafka.sink;

import io.lakestream.api.annotation.PublicEvolving;
import java.io.Serializable;

/**
 * Reads one column of a stream element for a Kafka record (its key, value, topic or partition).
 * Must be deterministic and side-effect free: a replayed epoch must produce the same records.
 *
 * @param <IN> the stream's element type
 * @param <T> the column's type
 */
@PublicEvolving
@FunctionalInterface
public interface KafkaColumn<IN, T> extends Serializable {

  /** The column's value for {@code row}; may be null (a null key or a tombstone value). */
  T get(IN row);
}
