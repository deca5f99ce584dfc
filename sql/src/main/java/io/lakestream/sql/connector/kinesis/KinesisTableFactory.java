package io.lakestream.sql.connector.kinesis;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.connectors.options.OptionErrorClass;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.sql.QueryContextConfig;
import io.lakestream.sql.connector.CatalogCheckedTableFactory;
import io.lakestream.sql.connector.TableOptions;
import io.lakestream.sql.connector.format.RecordColumn;
import io.lakestream.sql.connector.format.ValueField;
import io.lakestream.sql.connector.format.ValueFormatOptions;
import io.lakestream.sql.types.FlinkTypes;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.factories.DynamicTableSourceFactory;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;

/**
 * {@code 'connector' = 'spark-kinesis'}: a Kinesis data stream as a Flink SQL source with
 * Databricks' {@code kinesis} options and columns (Flink's own {@code kinesis} connector keeps its
 * name and options).
 *
 * <p>With {@code format = 'raw'} (the default) the declared columns are Databricks' Kinesis columns
 * by name ({@code partitionKey}, {@code data}, {@code stream}, {@code shardId}, {@code
 * sequenceNumber}, {@code approximateArrivalTimestamp}). With {@code format = 'json'} or {@code
 * 'avro'} they are the fields of the data's JSON object or Avro record, the Kinesis columns are
 * {@code METADATA} columns, and {@code deadLetterTable} is required. Options, column names and
 * types (and the Avro schema's fields) are checked when the planner creates the table, before any
 * job runs; each failure names the option or column to change.
 */
@PublicEvolving
public final class KinesisTableFactory extends CatalogCheckedTableFactory
    implements DynamicTableSourceFactory {
  private static final String OTHER_FORMATS =
      "To read the fields of JSON or Avro data, set 'format' = 'json' or 'avro'";

  /** The connector's name in {@code WITH ('connector' = 'spark-kinesis')}. */
  public static final String IDENTIFIER = "spark-kinesis";

  @Override
  public String factoryIdentifier() {
    return IDENTIFIER;
  }

  @Override
  public DynamicTableSource createDynamicTableSource(Context context) {
    TableOptions options = options(context, KinesisSqlOptions.CATALOG);
    String name = options.table();
    KinesisTableSettings settings =
        KinesisTableSettings.of(name, options.given(), options.values());
    if (settings.dataFields() && settings.deadLetterTable().isEmpty()) {
      throw KinesisSqlOptions.CATALOG.failure(
          OptionErrorClass.MISSING_OPTION,
          ValueFormatOptions.DEAD_LETTER_TABLE.key(),
          "option 'deadLetterTable' is missing for "
              + name
              + ": with 'format' = '"
              + settings.format()
              + "' a record whose data does not decode into the declared columns goes to a"
              + " dead-letter Delta table, never dropped. Add 'deadLetterTable' = '<table"
              + " location>' to its WITH clause.");
    }
    RowType row = (RowType) context.getPhysicalRowDataType().getLogicalType();
    List<KinesisColumn> physical =
        settings.dataFields() ? fieldColumns(row, name, settings) : kinesisColumns(row, name);
    KinesisTableSource.valueDecoder(settings, physical); // checks the columns against the schema
    return new KinesisTableSource(
        settings,
        QueryContextConfig.read(context.getConfiguration(), name),
        physical,
        context.getPhysicalRowDataType());
  }

  private static List<KinesisColumn> kinesisColumns(RowType row, String table) {
    List<KinesisColumn> columns = new ArrayList<>();
    for (RowType.RowField field : row.getFields()) {
      KinesisRecordColumn kinesis =
          RecordColumn.declared(KinesisRecordColumn.class, field, table, "Kinesis", OTHER_FORMATS);
      boolean asText = field.getType().getTypeRoot() == LogicalTypeRoot.VARCHAR;
      columns.add(KinesisColumn.kinesis(field.getName(), kinesis, asText));
    }
    return columns;
  }

  private static List<KinesisColumn> fieldColumns(
      RowType row, String table, KinesisTableSettings settings) {
    List<KinesisColumn> columns = new ArrayList<>();
    for (RowType.RowField field : row.getFields()) {
      ColumnType type =
          FlinkTypes.toCoreColumnType(field, table, "format '" + settings.format() + "'");
      columns.add(
          KinesisColumn.field(
              new ValueField(field.getName(), type, !field.getType().isNullable())));
    }
    return columns;
  }
}
