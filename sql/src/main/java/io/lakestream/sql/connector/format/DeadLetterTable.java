package io.lakestream.sql.connector.format;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.delta.sink.DeltaSinkBuilder;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.operators.parse.DeadLetter;
import io.lakestream.operators.parse.ParseWithDeadLetters;
import io.lakestream.sql.SideSinks;
import io.lakestream.state.query.QueryContext;
import java.time.Instant;
import java.util.Map;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;

/**
 * The dead-letter Delta table of a source table: every record of its {@link
 * ParseWithDeadLetters#DEAD_LETTERS} side output, with the reason and the record's position,
 * written exactly once per epoch like any sink of the query (columns raw, error, source,
 * rejected_at).
 */
@Internal
public final class DeadLetterTable {
  /** The dead-letter table's columns. */
  public static final DeltaTableSchema SCHEMA =
      DeltaTableSchema.builder()
          .column("raw", ColumnType.STRING)
          .column("error", ColumnType.STRING)
          .column("source", ColumnType.STRING)
          .column("rejected_at", ColumnType.TIMESTAMP)
          .build();

  private DeadLetterTable() {}

  /**
   * Writes the dead letters of {@code rows} to the Delta table at {@code path}, as a side sink of
   * the query (uid {@code <table>-dead-letters}).
   *
   * @param table the source table's name
   */
  public static void write(
      SingleOutputStreamOperator<?> rows,
      String path,
      QueryContext query,
      String table,
      Map<String, String> hadoopConf) {
    String name = table + "-dead-letters";
    SideSinks.add(
        rows.getSideOutput(ParseWithDeadLetters.DEAD_LETTERS)
            .sinkTo(
                DeltaSinkBuilder.forTable(path, SCHEMA, DeadLetterTable::row)
                    .query(query)
                    .sinkName(name)
                    .hadoopConf(hadoopConf)
                    .build())
            .uid(name)
            .name("DeadLetters[" + table + "]"),
        table);
  }

  private static Object[] row(DeadLetter letter) {
    return new Object[] {
      letter.raw, letter.error, letter.source, Instant.ofEpochMilli(letter.rejectedAtMillis)
    };
  }
}
