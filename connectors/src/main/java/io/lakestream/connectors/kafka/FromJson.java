package io.lakestream.connectors.kafka;

import io.lakestream.operators.parse.DeadLetter;
import io.lakestream.operators.parse.ParseWithDeadLetters;
import io.lakestream.operators.parse.RecordParseException;
import io.lakestream.operators.parse.RecordParser;
import java.util.Objects;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Spark's {@code from_json(value, schema)} for Kafka records: parses each record's value (UTF-8)
 * with a {@link RecordParser} into typed rows. A record whose value does not parse or fails a
 * declared check, and a record with a null value, goes to the {@link
 * ParseWithDeadLetters#DEAD_LETTERS} side output with its raw value, the error and its position
 * ({@code topic/partition@offset}); it never fails the query and is never dropped. So input count =
 * parsed rows + dead letters.
 *
 * <p>Counts rows in metrics {@code numRowsParsed} and {@code numDeadLetters}. Exceptions other than
 * {@link RecordParseException} are parser bugs and fail the task.
 *
 * @param <T> the parsed row type
 */
public final class FromJson<T> extends ProcessFunction<KafkaRecord, T>
    implements ResultTypeQueryable<T> {
  private static final long serialVersionUID = 1L;

  private final RecordParser<T> parser;
  private final TypeInformation<T> rowType;
  private transient Counter parsed;
  private transient Counter rejected;

  public FromJson(RecordParser<T> parser, TypeInformation<T> rowType) {
    this.parser = Objects.requireNonNull(parser, "parser");
    this.rowType = Objects.requireNonNull(rowType, "rowType");
  }

  /**
   * Applies the parser to {@code records}; get the dead letters with {@code
   * result.getSideOutput(ParseWithDeadLetters.DEAD_LETTERS)}.
   *
   * @param uid the operator's uid
   */
  public static <T> SingleOutputStreamOperator<T> fromJson(
      DataStream<KafkaRecord> records,
      RecordParser<T> parser,
      TypeInformation<T> rowType,
      String uid) {
    return records.process(new FromJson<>(parser, rowType)).uid(uid).name("fromJson " + uid);
  }

  @Override
  public void open(OpenContext openContext) {
    parsed = getRuntimeContext().getMetricGroup().counter("numRowsParsed");
    rejected = getRuntimeContext().getMetricGroup().counter("numDeadLetters");
  }

  @Override
  public TypeInformation<T> getProducedType() {
    return rowType;
  }

  @Override
  public void processElement(KafkaRecord record, Context ctx, Collector<T> out) {
    T row;
    try {
      if (record.value == null) {
        throw new RecordParseException("the record has no value (null, a tombstone)");
      }
      row = parser.parseUtf8(record.value);
    } catch (RecordParseException e) {
      rejected.inc();
      ctx.output(
          ParseWithDeadLetters.DEAD_LETTERS,
          new DeadLetter(
              record.valueAsString(),
              e.getMessage(),
              record.position(),
              ctx.timerService().currentProcessingTime()));
      return;
    }
    parsed.inc();
    out.collect(row);
  }
}
