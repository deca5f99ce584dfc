package io.lakestream.pipelines;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.kafka.KafkaRecord;
import io.lakestream.operators.parse.FromJson;

/**
 * Reads a Kafka record's value and position ({@code topic/partition@offset}) for {@link FromJson},
 * which knows no source: the Kafka connector and the operators do not depend on each other.
 */
@Internal
public final class KafkaRecordValue implements FromJson.RawValue<KafkaRecord> {
  private static final long serialVersionUID = 1L;

  /** The one instance (stateless). */
  public static final KafkaRecordValue INSTANCE = new KafkaRecordValue();

  private KafkaRecordValue() {}

  @Override
  public byte[] value(KafkaRecord record) {
    return record.value;
  }

  @Override
  public String position(KafkaRecord record) {
    return record.position();
  }
}
