package io.lakestream.sql.connector.kafka;

import io.lakestream.connectors.avro.AvroValueDecoder;
import io.lakestream.connectors.options.OptionValues;
import io.lakestream.sql.connector.format.ValueFormatOptions;
import io.lakestream.state.Locations;
import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A Kafka table's settings from its SQL options, checked by {@link KafkaSqlOptions#CATALOG}.
 *
 * @param name the table's identifier, also the source's name and uid
 * @param kafkaOptions the Kafka source's options, as given (the source checks them again)
 * @param json whether the value is decoded as JSON ({@code format = 'json'})
 * @param avro the decoder of Avro values ({@code format = 'avro'}), or null
 * @param deadLetter the dead-letter table's location, or null
 * @param hadoopConf Hadoop settings of the dead-letter table's file system
 */
record KafkaTableSettings(
    String name,
    Map<String, String> kafkaOptions,
    boolean json,
    AvroValueDecoder avro,
    String deadLetter,
    Map<String, String> hadoopConf)
    implements Serializable {

  /** Whether the table's columns are fields of the value (format json or avro). */
  boolean valueFields() {
    return json || avro != null;
  }

  /** The format's name, for messages. */
  String format() {
    return json ? "json" : avro != null ? "avro" : "raw";
  }

  Optional<String> deadLetterTable() {
    return Optional.ofNullable(deadLetter);
  }

  static KafkaTableSettings of(String name, Map<String, String> given, OptionValues values) {
    Map<String, String> kafka = new LinkedHashMap<>();
    given.forEach(
        (key, value) -> {
          boolean own =
              KafkaSqlOptions.own().stream().anyMatch(o -> o.key().equalsIgnoreCase(key))
                  || key.toLowerCase(Locale.ROOT).startsWith(KafkaSqlOptions.HADOOP_PREFIX);
          if (!own) {
            kafka.put(key, value);
          }
        });
    return new KafkaTableSettings(
        name,
        Map.copyOf(kafka),
        values.get(KafkaSqlOptions.FORMAT).equalsIgnoreCase("json"),
        avro(values),
        values.getOptional(KafkaSqlOptions.DEAD_LETTER_TABLE).map(Locations::absolute).orElse(null),
        Map.copyOf(values.passThrough(KafkaSqlOptions.HADOOP_PREFIX)));
  }

  /** The Avro decoder of format avro, or null for another format. */
  private static AvroValueDecoder avro(OptionValues values) {
    return values.get(KafkaSqlOptions.FORMAT).equalsIgnoreCase("avro")
        ? ValueFormatOptions.avroDecoder(values, KafkaSqlOptions.CATALOG)
        : null;
  }
}
