package io.lakestream.sql.connector.format;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.connectors.avro.AvroValueDecoder;
import io.lakestream.connectors.options.Option;
import io.lakestream.connectors.options.OptionErrorClass;
import io.lakestream.connectors.options.OptionValues;
import io.lakestream.connectors.options.OptionsCatalog;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The options every table whose columns are decoded from its records' values shares (the Kafka and
 * Kinesis tables): the Avro schema of {@code format = 'avro'}, the schema registry, and the
 * dead-letter table. Each table's catalog adds them to its own options.
 */
@PublicEvolving
public final class ValueFormatOptions {
  /** The Avro schema of the values, inline. */
  public static final Option<String> AVRO_SCHEMA =
      Option.key("avroSchema")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "The values' Avro schema (JSON), as from_avro's jsonFormatSchema; with format avro,"
                  + " this or avroSchemaFile. With schemaRegistryUrl it is the reader schema each"
                  + " value's registered writer schema resolves to.");

  /** The Avro schema of the values, in a file. */
  public static final Option<String> AVRO_SCHEMA_FILE =
      Option.key("avroSchemaFile")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "A local .avsc file with the values' Avro schema, instead of avroSchema.");

  /** The schema registry of Confluent wire-format values. */
  public static final Option<String> SCHEMA_REGISTRY_URL =
      Option.key("schemaRegistryUrl")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "A Confluent schema registry: the values carry its wire format (magic byte and"
                  + " schema id), and each writer schema is fetched once by id.");

  /** The Delta table malformed records go to. */
  public static final Option<String> DEAD_LETTER_TABLE =
      Option.key("deadLetterTable")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "The location of the Delta table (created if missing) that takes every record"
                  + " format json or avro cannot decode, with the reason and the record's position"
                  + " (columns raw, error, source, rejected_at), written exactly once with the"
                  + " query's epochs. Required with format json and avro: a malformed record is"
                  + " never dropped silently.");

  /** Hadoop settings of the dead-letter table's file system. */
  public static final String HADOOP_PREFIX = "hadoop.";

  private ValueFormatOptions() {}

  /** The Avro options (the ones that apply with format avro only). */
  public static List<Option<?>> avroOptions() {
    return List.of(AVRO_SCHEMA, AVRO_SCHEMA_FILE, SCHEMA_REGISTRY_URL);
  }

  /**
   * The Avro decoder of {@code values}: the schema inline or from a file, exactly one of them.
   *
   * @param catalog the table's catalog, whose failures name its documentation
   * @throws io.lakestream.api.error.LakestreamException ({@code MISSING_OPTION} or {@code
   *     CONFLICTING_OPTIONS}) unless exactly one is set; {@code AVRO_SCHEMA_INVALID} for a schema
   *     from_avro cannot read
   */
  public static AvroValueDecoder avroDecoder(OptionValues values, OptionsCatalog catalog) {
    String registry = values.getOptional(SCHEMA_REGISTRY_URL).orElse(null);
    Optional<String> inline = values.getOptional(AVRO_SCHEMA);
    Optional<String> file = values.getOptional(AVRO_SCHEMA_FILE);
    if (inline.isPresent() == file.isPresent()) {
      throw catalog.failure(
          inline.isPresent()
              ? OptionErrorClass.CONFLICTING_OPTIONS
              : OptionErrorClass.MISSING_OPTION,
          AVRO_SCHEMA.key(),
          "format 'avro' needs the values' schema in exactly one of 'avroSchema' (inline JSON)"
              + " and 'avroSchemaFile' (a .avsc file)");
    }
    return inline.isPresent()
        ? AvroValueDecoder.of(inline.get(), registry)
        : AvroValueDecoder.ofFile(Path.of(file.get()), registry);
  }
}
