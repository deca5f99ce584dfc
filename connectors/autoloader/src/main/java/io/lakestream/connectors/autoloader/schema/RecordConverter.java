package io.lakestream.connectors.autoloader.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.schema.Column;
import io.lakestream.connectors.schema.JsonColumnValues;
import java.io.Serializable;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.flink.types.Row;

/**
 * Turns a file's records into rows of an {@link AutoLoaderSchema}: data columns converted to their
 * types, partition columns from the file's {@code name=value} directories, and, with a rescued data
 * column, a JSON object of what did not fit (fields the schema lacks, values of the wrong type,
 * malformed lines as {@code _corrupt_record}) plus {@code _file_path}; null when everything fit.
 */
@Internal
public final class RecordConverter implements Serializable {
  private static final long serialVersionUID = 1L;

  private final AutoLoaderSchema schema;

  public RecordConverter(AutoLoaderSchema schema) {
    this.schema = schema;
  }

  public AutoLoaderSchema schema() {
    return schema;
  }

  /** Partition values of a key ({@code date=2026-11-29/f.json}), by column name. */
  public static Map<String, String> partitionValues(String key) {
    Map<String, String> values = new LinkedHashMap<>();
    String[] segments = key.split("/");
    for (int i = 0; i < segments.length - 1; i++) {
      int eq = segments[i].indexOf('=');
      if (eq > 0) {
        values.put(
            segments[i].substring(0, eq),
            URLDecoder.decode(segments[i].substring(eq + 1), StandardCharsets.UTF_8));
      }
    }
    return values;
  }

  /**
   * Fields of {@code record} that are neither data nor partition columns of the schema, added to
   * {@code out}.
   */
  public void unknownFields(ObjectNode record, Collection<String> out) {
    Iterator<String> names = record.fieldNames();
    while (names.hasNext()) {
      String name = names.next();
      if (schema.column(name) == null && !schema.partitionColumns().contains(name)) {
        out.add(name);
      }
    }
  }

  /**
   * The row for one record (null for a malformed line).
   *
   * @param filePath the file's full path, for {@code _file_path} and messages
   * @param partitions the file's partition values
   * @throws MalformedRecordException if something does not fit and there is no rescued data column
   */
  public Row toRow(
      ObjectNode record,
      String line,
      long lineNumber,
      String filePath,
      Map<String, String> partitions) {
    Object[] values = new Object[schema.arity()];
    ObjectNode rescued = null;
    if (record == null) {
      rescued =
          rescue(
              null,
              "_corrupt_record",
              JsonNodeFactory.instance.textNode(line),
              filePath,
              lineNumber,
              "the line is not a valid record");
    } else {
      int i = 0;
      for (Column column : schema.columns()) {
        JsonNode node = record.get(column.name());
        try {
          values[i] = JsonColumnValues.convert(column.type(), node);
        } catch (IllegalArgumentException e) {
          rescued = rescue(rescued, column.name(), node, filePath, lineNumber, e.getMessage());
        }
        i++;
      }
      if (schema.rescuedDataColumn()) {
        Iterator<Map.Entry<String, JsonNode>> fields = record.fields();
        while (fields.hasNext()) {
          Map.Entry<String, JsonNode> field = fields.next();
          String name = field.getKey();
          if (schema.column(name) == null && !schema.partitionColumns().contains(name)) {
            rescued = rescue(rescued, name, field.getValue(), filePath, lineNumber, null);
          }
        }
      }
    }
    int p = schema.columns().size();
    for (String partition : schema.partitionColumns()) {
      values[p++] = partitions.get(partition);
    }
    if (schema.rescuedDataColumn() && rescued != null) {
      rescued.put("_file_path", filePath);
      values[p] = rescued.toString();
    }
    return Row.of(values);
  }

  private ObjectNode rescue(
      ObjectNode rescued, String name, JsonNode value, String file, long line, String why) {
    if (!schema.rescuedDataColumn()) {
      throw new MalformedRecordException(
          "Auto Loader cannot read line "
              + line
              + " of "
              + file
              + (why == null ? "" : " (column " + name + ": " + why + ")")
              + " and the stream has no "
              + AutoLoaderSchema.RESCUED_DATA
              + " column to keep it. Fix the file, or set"
              + " cloudFiles.schemaEvolutionMode=rescue to keep such data in "
              + AutoLoaderSchema.RESCUED_DATA
              + ".");
    }
    ObjectNode node = rescued == null ? JsonNodeFactory.instance.objectNode() : rescued;
    node.set(name, value);
    return node;
  }
}
