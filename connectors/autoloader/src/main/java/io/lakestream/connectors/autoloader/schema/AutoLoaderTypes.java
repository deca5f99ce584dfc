package io.lakestream.connectors.autoloader.schema;

import com.fasterxml.jackson.databind.JsonNode;
import io.lakestream.api.annotation.Internal;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.connectors.schema.SchemaErrorClass;
import io.lakestream.connectors.schema.TypeSupport;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;

/**
 * The converter between the schema model ({@link ColumnType}) and Auto Loader: the types its
 * schemas hold, their text in schema hints, given schemas and the schema files under {@code
 * cloudFiles.schemaLocation} (Spark SQL DDL: {@code STRING}, {@code BIGINT}, {@code INT}, {@code
 * DOUBLE}, {@code BOOLEAN}, {@code DATE}, {@code TIMESTAMP}, {@code DECIMAL(p,s)}, {@code BINARY};
 * {@link ColumnType#sql()} writes it), the Flink type of a column's values, and the inference of
 * types from JSON and CSV values.
 *
 * <p>Other types are refused ({@link #parse}); nested values in files are kept as JSON text in
 * STRING columns.
 */
@Internal
public final class AutoLoaderTypes {
  /**
   * The types Auto Loader schemas hold: {@link TypeSupport#CORE} and BINARY ({@code byte[]}: the
   * content of binaryFile, or base64 text in other formats).
   */
  public static final TypeSupport SUPPORTED = TypeSupport.CORE.plus(ColumnType.Kind.BINARY);

  private AutoLoaderTypes() {}

  /**
   * Parses a type's DDL text; {@code LONG} and {@code INTEGER} are read as {@code BIGINT} and
   * {@code INT}.
   *
   * @throws LakestreamException of class {@link SchemaErrorClass#UNSUPPORTED_DATA_TYPE} naming the
   *     supported types, for text of another type or of none; {@link
   *     SchemaErrorClass#INVALID_DECIMAL} for a decimal out of range
   */
  public static ColumnType parse(String text) {
    ColumnType type;
    try {
      type = ColumnType.parse(text);
    } catch (LakestreamException e) {
      if (SchemaErrorClass.INVALID_DECIMAL.name().equals(e.errorClass())) {
        throw e;
      }
      throw unsupported(text, e);
    }
    if (!SUPPORTED.supports(type)) {
      throw unsupported(text, null);
    }
    return type;
  }

  private static LakestreamException unsupported(String text, Throwable cause) {
    return new LakestreamException(
        SchemaErrorClass.UNSUPPORTED_DATA_TYPE,
        "Unsupported column type '"
            + text.trim()
            + "'; supported: STRING, BIGINT, INT, DOUBLE, BOOLEAN, DATE, TIMESTAMP, DECIMAL(p,s), BINARY",
        cause);
  }

  /** The Flink type of a column's values (the rows' field types). */
  public static TypeInformation<?> typeInfo(ColumnType type) {
    switch (type.kind()) {
      case LONG:
        return Types.LONG;
      case INT:
        return Types.INT;
      case DOUBLE:
        return Types.DOUBLE;
      case BOOLEAN:
        return Types.BOOLEAN;
      case DATE:
        return Types.LOCAL_DATE;
      case TIMESTAMP:
        return Types.INSTANT;
      case DECIMAL:
        return Types.BIG_DEC;
      case BINARY:
        return Types.PRIMITIVE_ARRAY(Types.BYTE);
      default:
        return Types.STRING;
    }
  }

  /**
   * The type inferred for one value ({@code null} for a JSON null: no information).
   *
   * @param textValues the format has only text values (CSV): numbers and booleans are recognized in
   *     text; in JSON a string stays a string, as in Spark
   */
  public static ColumnType infer(JsonNode node, boolean inferColumnTypes, boolean textValues) {
    if (node == null || node.isNull()) {
      return null;
    }
    if (!inferColumnTypes) {
      return ColumnType.STRING;
    }
    if (node.isIntegralNumber()) {
      return node.canConvertToLong() ? ColumnType.LONG : ColumnType.DOUBLE;
    }
    if (node.isNumber()) {
      return ColumnType.DOUBLE;
    }
    if (node.isBoolean()) {
      return ColumnType.BOOLEAN;
    }
    return node.isTextual() && textValues ? inferText(node.asText().trim()) : ColumnType.STRING;
  }

  private static ColumnType inferText(String text) {
    if (text.matches("-?\\d{1,18}")) {
      return ColumnType.LONG;
    }
    if (text.matches("-?(\\d+\\.\\d*|\\.\\d+|\\d+)([eE][-+]?\\d+)?")) {
      return ColumnType.DOUBLE;
    }
    if (text.equalsIgnoreCase("true") || text.equalsIgnoreCase("false")) {
      return ColumnType.BOOLEAN;
    }
    return ColumnType.STRING;
  }

  /**
   * The narrowest type both values fit ({@code null}: no information): INT and BIGINT widen to
   * BIGINT, either with DOUBLE to DOUBLE, anything else to STRING.
   */
  public static ColumnType widen(ColumnType a, ColumnType b) {
    if (a == null) {
      return b;
    }
    if (b == null || a.equals(b)) {
      return a;
    }
    if (isNumeric(a) && isNumeric(b)) {
      return a.equals(ColumnType.DOUBLE) || b.equals(ColumnType.DOUBLE)
          ? ColumnType.DOUBLE
          : ColumnType.LONG;
    }
    return ColumnType.STRING;
  }

  private static boolean isNumeric(ColumnType type) {
    return type.equals(ColumnType.INT)
        || type.equals(ColumnType.LONG)
        || type.equals(ColumnType.DOUBLE);
  }
}
