package io.lakestream.connectors.avro;

import io.lakestream.api.annotation.Internal;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.schema.Column;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.connectors.schema.RowSchema;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.avro.LogicalType;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericFixed;
import org.apache.avro.generic.IndexedRecord;

/**
 * An Avro record schema as lakestream's schema model, and a converter of its decoded (generic)
 * values to the Java values of {@link ColumnType}, as Spark's {@code from_avro} maps them: boolean,
 * int, long, float, double, string and enum (string), bytes and fixed (binary), decimal, date,
 * timestamp-millis/micros (timestamp), local-timestamp-millis/micros (timestamp_ntz), records
 * (struct), arrays, maps (string keys), and unions of null with one type (nullable). Other unions
 * fail with {@code AVRO_SCHEMA_INVALID} naming the field.
 */
@Internal
final class AvroColumns {
  private final RowSchema rowSchema;
  private final Function<Object, Object> converter;

  private AvroColumns(RowSchema rowSchema, Function<Object, Object> converter) {
    this.rowSchema = rowSchema;
    this.converter = converter;
  }

  /** The columns of record schema {@code schema}. */
  static AvroColumns of(Schema schema) {
    if (schema.getType() != Schema.Type.RECORD) {
      throw invalid("the schema is a " + schema.getType() + ", not a record");
    }
    Typed typed = typed(schema, schema.getName());
    return new AvroColumns(((ColumnType.Struct) typed.type).fields(), typed.converter);
  }

  RowSchema rowSchema() {
    return rowSchema;
  }

  /** The row of a decoded record. */
  Object[] row(Object record) {
    return (Object[]) converter.apply(record);
  }

  private record Typed(ColumnType type, boolean nullable, Function<Object, Object> converter) {}

  private static Typed typed(Schema schema, String path) {
    if (schema.getType() == Schema.Type.UNION) {
      List<Schema> types = schema.getTypes();
      List<Schema> nonNull = types.stream().filter(t -> t.getType() != Schema.Type.NULL).toList();
      if (nonNull.size() != 1) {
        throw invalid(
            "field "
                + path
                + " is a union of "
                + types
                + "; from_avro reads unions of null and"
                + " one type");
      }
      Typed inner = typed(nonNull.get(0), path);
      return new Typed(inner.type, true, inner.converter);
    }
    LogicalType logical = schema.getLogicalType();
    return switch (schema.getType()) {
      case BOOLEAN -> plain(ColumnType.BOOLEAN, v -> v);
      case INT ->
          logical instanceof LogicalTypes.Date
              ? plain(ColumnType.DATE, v -> LocalDate.ofEpochDay((Integer) v))
              : plain(ColumnType.INT, v -> v);
      case LONG -> longType(logical);
      case FLOAT -> plain(ColumnType.FLOAT, v -> v);
      case DOUBLE -> plain(ColumnType.DOUBLE, v -> v);
      case STRING, ENUM -> plain(ColumnType.STRING, Object::toString);
      case BYTES, FIXED -> bytesType(logical);
      case RECORD -> record(schema, path);
      case ARRAY -> {
        Typed element = typed(schema.getElementType(), path + "[]");
        yield plain(
            ColumnType.array(element.type),
            v -> {
              List<Object> out = new ArrayList<>();
              for (Object e : (List<?>) v) {
                out.add(e == null ? null : element.converter.apply(e));
              }
              return out;
            });
      }
      case MAP -> {
        Typed value = typed(schema.getValueType(), path + "{}");
        yield plain(
            ColumnType.map(ColumnType.STRING, value.type),
            v -> {
              Map<String, Object> out = new LinkedHashMap<>();
              ((Map<?, ?>) v)
                  .forEach(
                      (k, e) -> out.put(k.toString(), e == null ? null : value.converter.apply(e)));
              return out;
            });
      }
      default -> throw invalid("field " + path + " has type " + schema.getType());
    };
  }

  private static Typed record(Schema schema, String path) {
    List<Column> columns = new ArrayList<>();
    List<Function<Object, Object>> converters = new ArrayList<>();
    for (Schema.Field field : schema.getFields()) {
      Typed typed = typed(field.schema(), path + "." + field.name());
      columns.add(new Column(field.name(), typed.type, typed.nullable));
      converters.add(typed.converter);
    }
    return plain(
        ColumnType.struct(RowSchema.of(columns)),
        v -> {
          IndexedRecord record = (IndexedRecord) v;
          Object[] row = new Object[converters.size()];
          for (int i = 0; i < row.length; i++) {
            Object value = record.get(i);
            row[i] = value == null ? null : converters.get(i).apply(value);
          }
          return row;
        });
  }

  private static Typed longType(LogicalType logical) {
    if (logical instanceof LogicalTypes.TimestampMillis) {
      return plain(ColumnType.TIMESTAMP, v -> Instant.ofEpochMilli((Long) v));
    }
    if (logical instanceof LogicalTypes.TimestampMicros) {
      return plain(ColumnType.TIMESTAMP, v -> micros((Long) v));
    }
    if (logical instanceof LogicalTypes.LocalTimestampMillis) {
      return plain(
          ColumnType.TIMESTAMP_NTZ,
          v -> LocalDateTime.ofInstant(Instant.ofEpochMilli((Long) v), ZoneOffset.UTC));
    }
    if (logical instanceof LogicalTypes.LocalTimestampMicros) {
      return plain(
          ColumnType.TIMESTAMP_NTZ, v -> LocalDateTime.ofInstant(micros((Long) v), ZoneOffset.UTC));
    }
    return plain(ColumnType.LONG, v -> v);
  }

  private static Typed bytesType(LogicalType logical) {
    Function<Object, byte[]> bytes =
        v -> {
          if (v instanceof GenericFixed fixed) {
            return fixed.bytes();
          }
          ByteBuffer buffer = ((ByteBuffer) v).duplicate();
          byte[] out = new byte[buffer.remaining()];
          buffer.get(out);
          return out;
        };
    if (logical instanceof LogicalTypes.Decimal decimal) {
      int scale = decimal.getScale();
      return plain(
          ColumnType.decimal(decimal.getPrecision(), scale),
          v -> new BigDecimal(new BigInteger(bytes.apply(v)), scale));
    }
    return plain(ColumnType.BINARY, bytes::apply);
  }

  private static Instant micros(long micros) {
    return Instant.ofEpochSecond(
        Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000);
  }

  private static Typed plain(ColumnType type, Function<Object, Object> converter) {
    return new Typed(type, false, converter);
  }

  private static LakestreamException invalid(String what) {
    return new LakestreamException(
        AvroErrorClass.AVRO_SCHEMA_INVALID, "from_avro cannot read the schema: " + what);
  }
}
