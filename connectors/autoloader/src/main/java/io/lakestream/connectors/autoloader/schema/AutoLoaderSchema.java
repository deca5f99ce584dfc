package io.lakestream.connectors.autoloader.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.schema.Column;
import io.lakestream.connectors.schema.ColumnType;
import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.typeutils.RowTypeInfo;

/**
 * The schema Auto Loader reads files with: data columns (from the files), then partition columns
 * (from {@code name=value} directories, always strings), then optionally {@value #RESCUED_DATA}.
 * Rows have the fields in that order ({@link #rowType()}). Data columns are {@link Column}s of the
 * schema model, all nullable (a file may omit any field), of the types {@link AutoLoaderTypes}
 * supports.
 *
 * @param columns data columns in row order
 * @param partitionColumns partition column names, in row order after the data columns
 * @param rescuedDataColumn whether rows end with {@value #RESCUED_DATA}: what the schema could not
 *     take (unknown or mistyped fields, as a JSON object with {@code _file_path})
 */
@PublicEvolving
public record AutoLoaderSchema(
    List<Column> columns, List<String> partitionColumns, boolean rescuedDataColumn)
    implements Serializable {

  /** The rescued data column's name, as in Databricks. */
  public static final String RESCUED_DATA = "_rescued_data";

  private static final ObjectMapper JSON = new ObjectMapper();

  public AutoLoaderSchema {
    columns = List.copyOf(columns);
    partitionColumns = List.copyOf(partitionColumns);
  }

  /** The data column named {@code name}, or null. */
  public Column column(String name) {
    return columns.stream().filter(c -> c.name().equals(name)).findFirst().orElse(null);
  }

  /** This schema with {@code added} data columns appended. */
  public AutoLoaderSchema withColumns(List<Column> added) {
    List<Column> all = new ArrayList<>(columns);
    all.addAll(added);
    return new AutoLoaderSchema(all, partitionColumns, rescuedDataColumn);
  }

  /** Number of fields of a row. */
  public int arity() {
    return columns.size() + partitionColumns.size() + (rescuedDataColumn ? 1 : 0);
  }

  /** The rows' type: field names and Flink types in row order. */
  public RowTypeInfo rowType() {
    List<TypeInformation<?>> types = new ArrayList<>();
    List<String> names = new ArrayList<>();
    for (Column c : columns) {
      names.add(c.name());
      types.add(AutoLoaderTypes.typeInfo(c.type()));
    }
    for (String p : partitionColumns) {
      names.add(p);
      types.add(Types.STRING);
    }
    if (rescuedDataColumn) {
      names.add(RESCUED_DATA);
      types.add(Types.STRING);
    }
    return new RowTypeInfo(types.toArray(new TypeInformation<?>[0]), names.toArray(new String[0]));
  }

  /** DDL-like text, e.g. {@code id BIGINT, name STRING}. */
  public String ddl() {
    List<String> parts = new ArrayList<>();
    columns.forEach(c -> parts.add(c.name() + " " + c.type().sql()));
    return String.join(", ", parts);
  }

  /**
   * Parses {@code "id BIGINT, amount DECIMAL(12,2)"} (also {@code id=BIGINT}) into columns in
   * order.
   *
   * @throws IllegalArgumentException for an entry without a type, an unsupported type ({@link
   *     AutoLoaderTypes#parse}'s message) or a decimal out of range: the options catalog turns it
   *     into an error naming the option
   */
  public static Map<String, ColumnType> parseColumns(String ddl) {
    Map<String, ColumnType> columns = new LinkedHashMap<>();
    int depth = 0;
    StringBuilder entry = new StringBuilder();
    for (char ch : (ddl + ",").toCharArray()) {
      if (ch == '(' || ch == '<') {
        depth++;
      } else if (ch == ')' || ch == '>') {
        depth--;
      }
      if (ch == ',' && depth == 0) {
        String e = entry.toString().trim();
        entry.setLength(0);
        if (e.isEmpty()) {
          continue;
        }
        String[] nameType = e.split("\\s*=\\s*|\\s+", 2);
        if (nameType.length < 2 || nameType[1].isBlank()) {
          throw new IllegalArgumentException(
              "Column '" + e + "' needs a type, e.g. '" + e + " STRING'");
        }
        columns.put(unquote(nameType[0]), typeOf(nameType[1]));
      } else {
        entry.append(ch);
      }
    }
    if (depth != 0 || !entry.toString().isBlank()) {
      throw new IllegalArgumentException("Unbalanced parentheses in '" + ddl + "'");
    }
    return columns;
  }

  private static ColumnType typeOf(String text) {
    try {
      return AutoLoaderTypes.parse(text);
    } catch (LakestreamException e) {
      throw new IllegalArgumentException(e.detail(), e);
    }
  }

  private static String unquote(String name) {
    return name.startsWith("`") && name.endsWith("`") && name.length() > 1
        ? name.substring(1, name.length() - 1)
        : name;
  }

  /** The schema as JSON, as stored in {@code _schemas/N}. */
  public String toJson() {
    ObjectNode root = JSON.createObjectNode();
    ArrayNode cols = root.putArray("columns");
    for (Column c : columns) {
      cols.addObject().put("name", c.name()).put("type", c.type().sql());
    }
    ArrayNode parts = root.putArray("partitionColumns");
    partitionColumns.forEach(parts::add);
    root.put("rescuedDataColumn", rescuedDataColumn);
    return root.toString();
  }

  /**
   * Reads {@link #toJson()} output.
   *
   * @throws IOException if it is not such JSON
   * @throws LakestreamException if a column's type is not one Auto Loader supports
   */
  public static AutoLoaderSchema fromJson(String json) throws IOException {
    JsonNode root = JSON.readTree(json);
    if (root == null || !root.has("columns")) {
      throw new IOException("not an Auto Loader schema: " + json);
    }
    List<Column> cols = new ArrayList<>();
    for (JsonNode c : root.get("columns")) {
      cols.add(new Column(c.get("name").asText(), AutoLoaderTypes.parse(c.get("type").asText())));
    }
    List<String> parts = new ArrayList<>();
    root.path("partitionColumns").forEach(p -> parts.add(p.asText()));
    return new AutoLoaderSchema(cols, parts, root.path("rescuedDataColumn").asBoolean(false));
  }
}
