package io.lakestream.sql.connector.kafka;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.connectors.kafka.source.KafkaSourceOptions;
import io.lakestream.connectors.options.Option;
import io.lakestream.connectors.options.OptionRule;
import io.lakestream.connectors.options.OptionsCatalog;
import io.lakestream.connectors.options.PassThrough;
import io.lakestream.sql.connector.format.ValueFormatOptions;
import java.util.ArrayList;
import java.util.List;

/**
 * The options of a {@code 'connector' = 'spark-kafka'} table in Flink SQL: the Kafka source's
 * options under Spark's names ({@code subscribe}, {@code startingOffsets}, {@code
 * maxOffsetsPerTrigger}, {@code kafka.*}, MSK authentication; keys ignore case), how the value is
 * decoded ({@link #FORMAT}) and where malformed records go ({@link #DEAD_LETTER_TABLE}). {@link
 * #CATALOG} checks them when the planner creates the table; see {@code docs/options/sql-kafka.md}.
 */
@PublicEvolving
public final class KafkaSqlOptions {
  /** How a record's value becomes the table's columns. */
  public static final Option<String> FORMAT =
      Option.key("format")
          .choiceType("raw", "json", "avro")
          .defaultValue("raw")
          .withDescription(
              "raw: the table's columns are Spark's Kafka columns (key, value, topic, partition,"
                  + " offset, timestamp, timestampType, headers), by name. json: the value is a"
                  + " JSON object whose fields are the table's columns (by name); Kafka's columns"
                  + " are then METADATA columns. A record that is not such an object goes to"
                  + " deadLetterTable. avro: Spark's from_avro: the value is an Avro record of"
                  + " avroSchema (or avroSchemaFile), in the Confluent wire format with"
                  + " schemaRegistryUrl; its fields are the table's columns, and a value that"
                  + " does not decode goes to deadLetterTable.");

  /** The Avro schema of the values, inline ({@link ValueFormatOptions#AVRO_SCHEMA}). */
  public static final Option<String> AVRO_SCHEMA = ValueFormatOptions.AVRO_SCHEMA;

  /** The Avro schema of the values, in a file. */
  public static final Option<String> AVRO_SCHEMA_FILE = ValueFormatOptions.AVRO_SCHEMA_FILE;

  /** The schema registry of Confluent wire-format values. */
  public static final Option<String> SCHEMA_REGISTRY_URL = ValueFormatOptions.SCHEMA_REGISTRY_URL;

  /** The Delta table malformed records go to. */
  public static final Option<String> DEAD_LETTER_TABLE = ValueFormatOptions.DEAD_LETTER_TABLE;

  /** Hadoop settings of the dead-letter table's file system. */
  public static final String HADOOP_PREFIX = ValueFormatOptions.HADOOP_PREFIX;

  /** Every option of a Kafka table in Flink SQL. */
  public static final OptionsCatalog CATALOG = catalog();

  private KafkaSqlOptions() {}

  /** The options this table adds to the Kafka source's. */
  public static List<Option<?>> own() {
    return List.of(FORMAT, AVRO_SCHEMA, AVRO_SCHEMA_FILE, SCHEMA_REGISTRY_URL, DEAD_LETTER_TABLE);
  }

  private static OptionsCatalog catalog() {
    OptionsCatalog source = KafkaSourceOptions.CATALOG;
    List<Option<?>> all = new ArrayList<>(source.options());
    all.addAll(own());
    OptionsCatalog.Builder builder =
        OptionsCatalog.builder("sql-kafka", "Kafka table in Flink SQL (spark-kafka)")
            .label("Kafka table")
            .summary(
                "Options of `CREATE TABLE ... WITH ('connector' = 'spark-kafka', ...)`: the"
                    + " Kafka source's options under Spark's names (keys ignore case), the value's"
                    + " format and the dead-letter table.")
            .options(all)
            .passThrough(
                PassThrough.prefix(
                    HADOOP_PREFIX,
                    "Hadoop settings of the dead-letter table's file system, e.g."
                        + " hadoop.fs.s3a.endpoint"));
    source.passThroughs().forEach(builder::passThrough);
    builder.rule(
        OptionRule.onlyWhen(
            FORMAT,
            "avro",
            "with format avro",
            AVRO_SCHEMA,
            AVRO_SCHEMA_FILE,
            SCHEMA_REGISTRY_URL));
    for (OptionRule rule : source.rules()) {
      builder.rule(rule);
    }
    return builder.build();
  }
}
