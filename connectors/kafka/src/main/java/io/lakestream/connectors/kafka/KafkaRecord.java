package io.lakestream.connectors.kafka;

import io.lakestream.api.annotation.PublicEvolving;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * One Kafka record as the source emits it, with the columns of Spark's Kafka source: key, value,
 * topic, partition, offset, timestamp, timestampType and (with {@code includeHeaders}) headers.
 *
 * <p>A Flink POJO (public fields, public no-arg constructor) whose fields are all basic types or
 * arrays of them, so Flink serializes it with its POJO serializer, never with Kryo. Headers are two
 * parallel arrays (keys and values) because a {@code Map} or {@code List} field would fall back to
 * Kryo.
 */
@PublicEvolving
public class KafkaRecord {
  /** The record key, or null. */
  public byte[] key;

  /** The record value, or null (a tombstone). */
  public byte[] value;

  public String topic;
  public int partition;
  public long offset;

  /** Record timestamp, epoch millis. */
  public long timestamp;

  /** 0 = CreateTime, 1 = LogAppendTime, -1 = none (as in Spark's {@code timestampType} column). */
  public int timestampType;

  /** Header keys, in record order (may repeat); empty unless headers are included. */
  public String[] headerKeys = new String[0];

  /** Header values, parallel to {@link #headerKeys}; an element may be null. */
  public byte[][] headerValues = new byte[0][];

  public KafkaRecord() {}

  public KafkaRecord(
      byte[] key,
      byte[] value,
      String topic,
      int partition,
      long offset,
      long timestamp,
      int timestampType,
      String[] headerKeys,
      byte[][] headerValues) {
    this.key = key;
    this.value = value;
    this.topic = topic;
    this.partition = partition;
    this.offset = offset;
    this.timestamp = timestamp;
    this.timestampType = timestampType;
    this.headerKeys = headerKeys;
    this.headerValues = headerValues;
  }

  /** The value decoded as UTF-8, or null for a null value. */
  public String valueAsString() {
    return value == null ? null : new String(value, StandardCharsets.UTF_8);
  }

  /** The key decoded as UTF-8, or null for a null key. */
  public String keyAsString() {
    return key == null ? null : new String(key, StandardCharsets.UTF_8);
  }

  /** The value of the last header named {@code name}, or null when there is none. */
  public byte[] header(String name) {
    for (int i = headerKeys.length - 1; i >= 0; i--) {
      if (headerKeys[i].equals(name)) {
        return headerValues[i];
      }
    }
    return null;
  }

  /** Where the record came from: {@code topic/partition@offset}. */
  public String position() {
    return topic + "/" + partition + "@" + offset;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof KafkaRecord)) {
      return false;
    }
    KafkaRecord r = (KafkaRecord) o;
    return partition == r.partition
        && offset == r.offset
        && timestamp == r.timestamp
        && timestampType == r.timestampType
        && Objects.equals(topic, r.topic)
        && Arrays.equals(key, r.key)
        && Arrays.equals(value, r.value)
        && Arrays.equals(headerKeys, r.headerKeys)
        && Arrays.deepEquals(headerValues, r.headerValues);
  }

  @Override
  public int hashCode() {
    return Objects.hash(topic, partition, offset);
  }

  @Override
  public String toString() {
    return "KafkaRecord{" + position() + ", timestamp=" + timestamp + "}";
  }
}
