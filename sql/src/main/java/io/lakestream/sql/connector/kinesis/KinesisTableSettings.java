package io.lakestream.sql.connector.kinesis;

import io.lakestream.connectors.avro.AvroValueDecoder;
import io.lakestream.connectors.kinesis.KinesisSourceOptions;
import io.lakestream.connectors.options.OptionValues;
import io.lakestream.sql.connector.format.ValueFormatOptions;
import io.lakestream.state.Locations;
import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A Kinesis table's settings from its SQL options, checked by {@link KinesisSqlOptions#CATALOG}.
 *
 * @param name the table's identifier, also the source's name and uid
 * @param sourceOptions the Kinesis source's options (the source checks them again)
 * @param format raw, json or avro (lower case)
 * @param avro the decoder of Avro data ({@code format = 'avro'}), or null
 * @param deadLetter the dead-letter table's location, or null
 * @param hadoopConf Hadoop settings of the dead-letter table's file system
 */
record KinesisTableSettings(
    String name,
    Map<String, String> sourceOptions,
    String format,
    AvroValueDecoder avro,
    String deadLetter,
    Map<String, String> hadoopConf)
    implements Serializable {

  /** Whether the table's columns are fields of the data (format json or avro). */
  boolean dataFields() {
    return !format.equals("raw");
  }

  Optional<String> deadLetterTable() {
    return Optional.ofNullable(deadLetter);
  }

  /** The settings of table {@code name} whose options, as written, are {@code given}. */
  static KinesisTableSettings of(String name, Map<String, String> given, OptionValues values) {
    Map<String, String> source = new LinkedHashMap<>();
    given.forEach(
        (key, value) -> {
          if (KinesisSourceOptions.ALL.stream().anyMatch(o -> o.key().equalsIgnoreCase(key))) {
            source.put(key, value);
          }
        });
    String format = values.get(KinesisSqlOptions.FORMAT).toLowerCase(Locale.ROOT);
    return new KinesisTableSettings(
        name,
        Map.copyOf(source),
        format,
        format.equals("avro")
            ? ValueFormatOptions.avroDecoder(values, KinesisSqlOptions.CATALOG)
            : null,
        values
            .getOptional(ValueFormatOptions.DEAD_LETTER_TABLE)
            .map(Locations::absolute)
            .orElse(null),
        Map.copyOf(values.passThrough(ValueFormatOptions.HADOOP_PREFIX)));
  }
}
