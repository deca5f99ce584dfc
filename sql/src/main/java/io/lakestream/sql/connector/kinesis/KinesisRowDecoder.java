package io.lakestream.sql.connector.kinesis;

import io.lakestream.connectors.kinesis.KinesisRecord;
import io.lakestream.operators.parse.DeadLetter;
import io.lakestream.operators.parse.ParseWithDeadLetters;
import io.lakestream.sql.connector.format.MalformedValueException;
import io.lakestream.sql.connector.format.ValueDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.types.Row;
import org.apache.flink.util.Collector;

/**
 * Turns Kinesis records ({@link KinesisRecord} rows) into a Kinesis table's rows: each column from
 * the record's Kinesis columns or from the fields of its data ({@link ValueDecoder}, JSON or Avro).
 *
 * <p>A record whose data does not decode into the columns goes to the {@link
 * ParseWithDeadLetters#DEAD_LETTERS} side output with the reason and the record's {@code
 * stream/shardId@sequenceNumber}: never dropped, and it never fails the query. Counts {@code
 * numRowsParsed} and {@code numDeadLetters}.
 */
final class KinesisRowDecoder extends ProcessFunction<Row, RowData> {
  private static final long serialVersionUID = 1L;

  private final List<KinesisColumn> columns;
  private final ValueDecoder values;

  /** The value field of each column, by column position (-1 for a Kinesis column). */
  private final int[] fieldAt;

  private transient Counter parsed;
  private transient Counter rejected;

  /**
   * @param values the decoder of the data into the columns that are fields, in column order
   */
  KinesisRowDecoder(List<KinesisColumn> columns, ValueDecoder values) {
    this.columns = List.copyOf(columns);
    this.values = values;
    this.fieldAt = new int[columns.size()];
    int next = 0;
    for (int i = 0; i < columns.size(); i++) {
      fieldAt[i] = columns.get(i).isField() ? next++ : -1;
    }
  }

  @Override
  public void open(OpenContext openContext) {
    parsed = getRuntimeContext().getMetricGroup().counter("numRowsParsed");
    rejected = getRuntimeContext().getMetricGroup().counter("numDeadLetters");
  }

  @Override
  public void processElement(Row record, Context ctx, Collector<RowData> out) {
    Object[] decoded;
    try {
      decoded = values.decode(KinesisRecord.data(record));
    } catch (MalformedValueException e) {
      rejected.inc();
      ctx.output(
          ParseWithDeadLetters.DEAD_LETTERS,
          new DeadLetter(
              new String(KinesisRecord.data(record), StandardCharsets.UTF_8),
              e.getMessage(),
              position(record),
              ctx.timerService().currentProcessingTime()));
      return;
    }
    GenericRowData row = new GenericRowData(columns.size());
    for (int i = 0; i < columns.size(); i++) {
      row.setField(
          i, columns.get(i).internalValue(record, fieldAt[i] < 0 ? null : decoded[fieldAt[i]]));
    }
    parsed.inc();
    out.collect(row);
  }

  /** The record's {@code stream/shardId@sequenceNumber}. */
  private static String position(Row record) {
    return record.getField(2)
        + "/"
        + KinesisRecord.shardId(record)
        + "@"
        + KinesisRecord.sequenceNumber(record);
  }
}
