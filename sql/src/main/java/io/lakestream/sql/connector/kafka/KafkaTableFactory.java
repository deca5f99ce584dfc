package io.lakestream.sql.connector.kafka;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.connectors.options.OptionErrorClass;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.sql.QueryContextConfig;
import io.lakestream.sql.connector.CatalogCheckedTableFactory;
import io.lakestream.sql.connector.TableOptions;
import io.lakestream.sql.connector.format.RecordColumn;
import io.lakestream.sql.connector.format.ValueDecoder;
import io.lakestream.sql.types.FlinkTypes;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.factories.DynamicTableSourceFactory;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;

/**
 * {@code 'connector' = 'spark-kafka'}: a Kafka topic as a Flink SQL source with Spark Structured
 * Streaming's options and columns (Flink's own {@code kafka} connector keeps its name and options).
 *
 * <p>With {@code format = 'raw'} (the default) the declared columns are Spark's Kafka columns by
 * name ({@code key}, {@code value}, {@code topic}, {@code partition}, {@code offset}, {@code
 * timestamp}, {@code timestampType}, {@code headers}). With {@code format = 'json'} they are the
 * fields of the value's JSON object, the Kafka columns are {@code METADATA} columns, and {@code
 * deadLetterTable} is required. Options, column names and types are checked when the planner
 * creates the table, before any job runs; each failure names the option or column to change.
 */
@PublicEvolving
public final class KafkaTableFactory extends CatalogCheckedTableFactory
    implements DynamicTableSourceFactory {
  private static final String OTHER_FORMATS =
      "To read the fields of JSON values, set 'format' = 'json'";

  /** The connector's name in {@code WITH ('connector' = 'spark-kafka')}. */
  public static final String IDENTIFIER = "spark-kafka";

  @Override
  public String factoryIdentifier() {
    return IDENTIFIER;
  }

  @Override
  public DynamicTableSource createDynamicTableSource(Context context) {
    TableOptions options = options(context, KafkaSqlOptions.CATALOG);
    String name = options.table();
    KafkaTableSettings settings = KafkaTableSettings.of(name, options.given(), options.values());
    if (settings.valueFields() && settings.deadLetterTable().isEmpty()) {
      throw KafkaSqlOptions.CATALOG.failure(
          OptionErrorClass.MISSING_OPTION,
          KafkaSqlOptions.DEAD_LETTER_TABLE.key(),
          "option 'deadLetterTable' is missing for "
              + name
              + ": with 'format' = '"
              + settings.format()
              + "' a record whose value does not decode into the declared columns goes to a"
              + " dead-letter Delta table, never dropped. Add 'deadLetterTable' = '<table"
              + " location>' to its WITH clause.");
    }
    RowType row = (RowType) context.getPhysicalRowDataType().getLogicalType();
    List<OutputColumn> physical =
        settings.valueFields() ? valueColumns(row, name, settings) : kafkaColumns(row, name);
    return new KafkaTableSource(
        settings,
        QueryContextConfig.read(context.getConfiguration(), name),
        physical,
        context.getPhysicalRowDataType());
  }

  private static List<OutputColumn> kafkaColumns(RowType row, String table) {
    List<OutputColumn> columns = new ArrayList<>();
    for (RowType.RowField field : row.getFields()) {
      KafkaRecordColumn kafka =
          RecordColumn.declared(KafkaRecordColumn.class, field, table, "Kafka", OTHER_FORMATS);
      boolean asText = field.getType().getTypeRoot() == LogicalTypeRoot.VARCHAR;
      columns.add(OutputColumn.kafka(field.getName(), kafka, asText));
    }
    return columns;
  }

  private static List<OutputColumn> valueColumns(
      RowType row, String table, KafkaTableSettings settings) {
    List<OutputColumn> columns = new ArrayList<>();
    for (RowType.RowField field : row.getFields()) {
      ColumnType type =
          FlinkTypes.toCoreColumnType(field, table, "format '" + settings.format() + "'");
      columns.add(OutputColumn.json(field.getName(), type, !field.getType().isNullable()));
    }
    if (settings.avro() != null) { // checks the columns against the schema
      ValueDecoder.avro(
          columns.stream().map(OutputColumn::valueField).toList(),
          settings.avro(),
          "Kafka table " + table);
    }
    return columns;
  }
}
