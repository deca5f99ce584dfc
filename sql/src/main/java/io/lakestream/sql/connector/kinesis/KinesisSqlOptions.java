package io.lakestream.sql.connector.kinesis;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.connectors.kinesis.KinesisSourceOptions;
import io.lakestream.connectors.options.Option;
import io.lakestream.connectors.options.OptionRule;
import io.lakestream.connectors.options.OptionsCatalog;
import io.lakestream.connectors.options.PassThrough;
import io.lakestream.sql.connector.format.ValueFormatOptions;
import java.util.ArrayList;
import java.util.List;

/**
 * The options of a {@code 'connector' = 'spark-kinesis'} table in Flink SQL: the Kinesis source's
 * options under Databricks' names ({@code streamName}, {@code region}, {@code initialPosition},
 * {@code maxRecordsPerEpoch}, ...; keys ignore case), how the data is decoded ({@link #FORMAT}, the
 * Avro schema) and where records that do not decode go ({@code deadLetterTable}). {@link #CATALOG}
 * checks them when the planner creates the table; see {@code docs/options/sql-kinesis.md}.
 */
@PublicEvolving
public final class KinesisSqlOptions {
  /** How a record's data becomes the table's columns. */
  public static final Option<String> FORMAT =
      Option.key("format")
          .choiceType("raw", "json", "avro")
          .defaultValue("raw")
          .withDescription(
              "raw: the table's columns are Databricks' Kinesis columns (partitionKey, data,"
                  + " stream, shardId, sequenceNumber, approximateArrivalTimestamp), by name."
                  + " json: the data is a JSON object whose fields are the table's columns (by"
                  + " name); the Kinesis columns are then METADATA columns. avro: the data is an"
                  + " Avro record of avroSchema (or avroSchemaFile), in the Confluent wire format"
                  + " with schemaRegistryUrl, whose fields are the table's columns. With json and"
                  + " avro a record that does not decode goes to deadLetterTable.");

  /** Every option of a Kinesis table in Flink SQL. */
  public static final OptionsCatalog CATALOG = catalog();

  private KinesisSqlOptions() {}

  /** The options this table adds to the Kinesis source's. */
  public static List<Option<?>> own() {
    List<Option<?>> own = new ArrayList<>(List.of(FORMAT));
    own.addAll(ValueFormatOptions.avroOptions());
    own.add(ValueFormatOptions.DEAD_LETTER_TABLE);
    return own;
  }

  private static OptionsCatalog catalog() {
    List<Option<?>> all = new ArrayList<>(KinesisSourceOptions.ALL);
    all.addAll(own());
    OptionsCatalog.Builder builder =
        OptionsCatalog.builder("sql-kinesis", "Kinesis table in Flink SQL (spark-kinesis)")
            .label("Kinesis table")
            .summary(
                "Options of `CREATE TABLE ... WITH ('connector' = 'spark-kinesis', ...)`: the"
                    + " Kinesis source's options under Databricks' names (keys ignore case), the"
                    + " data's format and the dead-letter table.")
            .options(all)
            .passThrough(
                PassThrough.prefix(
                    ValueFormatOptions.HADOOP_PREFIX,
                    "Hadoop settings of the dead-letter table's file system, e.g."
                        + " hadoop.fs.s3a.endpoint"));
    builder.rule(
        OptionRule.onlyWhen(
            FORMAT,
            "avro",
            "with format avro",
            ValueFormatOptions.AVRO_SCHEMA,
            ValueFormatOptions.AVRO_SCHEMA_FILE,
            ValueFormatOptions.SCHEMA_REGISTRY_URL));
    return builder.build();
  }
}
