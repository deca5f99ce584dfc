package io.lakestream.connectors.avro;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.schema.RowSchema;
import java.io.IOException;
import java.io.Serializable;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.apache.avro.SchemaParseException;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;

/**
 * Spark's {@code from_avro(value, jsonFormatSchema)} for record values (Kafka values, Kinesis
 * data): decodes one value into a row of {@link #rowSchema()} (the Java values of {@link
 * io.lakestream.connectors.schema.ColumnType}).
 *
 * <ul>
 *   <li>Without a schema registry, a value is plain Avro binary of the given schema.
 *   <li>With a schema registry URL, a value is in the Confluent wire format: magic byte 0, the
 *       writer schema's id (4 bytes, big-endian), Avro binary. The writer schema is fetched once
 *       per id ({@code GET <url>/schemas/ids/<id>}) and resolved against the given schema, which
 *       decides the row (added fields take their defaults, removed ones are skipped).
 * </ul>
 *
 * <p>Failures: a schema that cannot be read is {@code AVRO_SCHEMA_INVALID} when the decoder is
 * made. A value that does not decode (bytes that are not Avro of the schema, bytes left over, a
 * wrong magic byte, an id the registry does not know, a writer schema that does not resolve) is an
 * {@link AvroDecodeException}: route the record to the dead letters. A registry that cannot be
 * reached is {@code AVRO_SCHEMA_REGISTRY_UNAVAILABLE} and fails the task. Serializable (schema text
 * and URL only); not thread-safe: one per task.
 */
@PublicEvolving
public final class AvroValueDecoder implements Serializable {
  private static final long serialVersionUID = 1L;
  private static final byte MAGIC = 0;

  private final String schemaText;
  private final String registryUrl;
  private transient Schema reader;
  private transient AvroColumns columns;
  private transient GenericDatumReader<Object> plain;
  private transient Map<Integer, GenericDatumReader<Object>> byWriterId;
  private transient SchemaRegistryClient registry;
  private transient BinaryDecoder decoder;

  private AvroValueDecoder(String schemaText, String registryUrl) {
    this.schemaText = schemaText;
    this.registryUrl = registryUrl;
    init();
  }

  /**
   * A decoder of values of the Avro schema {@code schemaJson}.
   *
   * @param registryUrl the schema registry of Confluent wire-format values, or null for plain Avro
   * @throws LakestreamException {@code AVRO_SCHEMA_INVALID} if the schema cannot be read
   */
  public static AvroValueDecoder of(String schemaJson, String registryUrl) {
    return new AvroValueDecoder(schemaJson, registryUrl);
  }

  /**
   * A decoder of values of the Avro schema in {@code file} (an {@code .avsc}).
   *
   * @throws LakestreamException {@code AVRO_SCHEMA_INVALID} if the file cannot be read or holds no
   *     usable schema
   */
  public static AvroValueDecoder ofFile(Path file, String registryUrl) {
    try {
      return new AvroValueDecoder(Files.readString(file, StandardCharsets.UTF_8), registryUrl);
    } catch (IOException e) {
      throw new LakestreamException(
          AvroErrorClass.AVRO_SCHEMA_INVALID,
          "from_avro cannot read the schema file " + file + ": " + e,
          e);
    }
  }

  private void init() {
    try {
      reader = new Schema.Parser().parse(schemaText);
    } catch (SchemaParseException e) {
      throw new LakestreamException(
          AvroErrorClass.AVRO_SCHEMA_INVALID,
          "from_avro cannot read the schema: " + e.getMessage(),
          e);
    }
    columns = AvroColumns.of(reader);
    plain = new GenericDatumReader<>(reader);
    byWriterId = new HashMap<>();
    registry = registryUrl == null ? null : new SchemaRegistryClient(registryUrl);
  }

  /** The columns of the rows. */
  public RowSchema rowSchema() {
    return columns.rowSchema();
  }

  /**
   * The row of one value.
   *
   * @throws AvroDecodeException if the value does not decode (the message says why)
   */
  public Object[] decode(byte[] value) throws AvroDecodeException {
    if (reader == null) {
      init();
    }
    if (value == null) {
      throw new AvroDecodeException("the record has no value (null, a tombstone)");
    }
    if (registry == null) {
      return read(plain, value, 0);
    }
    if (value.length < 5 || value[0] != MAGIC) {
      throw new AvroDecodeException(
          value.length < 5
              ? "the value has "
                  + value.length
                  + " bytes, fewer than the Confluent wire format's 5-byte header"
              : "the value starts with byte "
                  + value[0]
                  + ", not the Confluent wire format's magic byte 0");
    }
    int id = ByteBuffer.wrap(value, 1, 4).getInt();
    return read(writerReader(id), value, 5);
  }

  private GenericDatumReader<Object> writerReader(int id) throws AvroDecodeException {
    GenericDatumReader<Object> datumReader = byWriterId.get(id);
    if (datumReader == null) {
      datumReader = new GenericDatumReader<>(registry.schema(id), reader);
      byWriterId.put(id, datumReader);
    }
    return datumReader;
  }

  private Object[] read(GenericDatumReader<Object> datumReader, byte[] value, int offset)
      throws AvroDecodeException {
    decoder = DecoderFactory.get().binaryDecoder(value, offset, value.length - offset, decoder);
    Object record;
    try {
      record = datumReader.read(null, decoder);
      if (!decoder.isEnd()) {
        throw new AvroDecodeException(
            "bytes are left after the record: the value is not Avro of the schema");
      }
    } catch (IOException | AvroRuntimeException | IndexOutOfBoundsException e) {
      throw new AvroDecodeException("the value is not Avro of the schema: " + e, e);
    } catch (
        RuntimeException e) { // a corrupt length or union index, a schema that does not resolve
      throw new AvroDecodeException("the value does not decode with the schema: " + e, e);
    }
    return columns.row(record);
  }
}
