package io.lakestream.operators.parse;

import io.lakestream.api.annotation.PublicEvolving;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
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
 * Spark's {@code from_json(value, schema)} for records that carry a raw value, such as Kafka
 * records: parses each record's value (UTF-8, read with a {@link RawValue}) with a {@link
 * RecordParser} into typed rows. A record whose value does not parse or fails a declared check, and
 * a record with a null value, goes to the {@link ParseWithDeadLetters#DEAD_LETTERS} side output
 * with its raw value, the error and its position (for Kafka, {@code topic/partition@offset}); it
 * never fails the query and is never dropped. So input count = parsed rows + dead letters.
 *
 * <p>Counts rows in metrics {@code numRowsParsed} and {@code numDeadLetters}. Exceptions other than
 * {@link RecordParseException} are parser bugs and fail the task.
 *
 * @param <R> the raw record type
 * @param <T> the parsed row type
 */
@PublicEvolving
public final class FromJson<R, T> extends ProcessFunction<R, T> implements ResultTypeQueryable<T> {
  private static final long serialVersionUID = 1L;

  /**
   * How to read a raw record: its value and where it came from (for the dead letter).
   *
   * @param <R> the raw record type
   */
  public interface RawValue<R> extends Serializable {
    /** The record's value bytes, or null (a tombstone). */
    byte[] value(R record);

    /** Where the record came from, in the source's own notation. */
    String position(R record);
  }

  private final RawValue<R> raw;
  private final RecordParser<T> parser;
  private final TypeInformation<T> rowType;
  private transient Counter parsed;
  private transient Counter rejected;

  public FromJson(RawValue<R> raw, RecordParser<T> parser, TypeInformation<T> rowType) {
    this.raw = Objects.requireNonNull(raw, "raw");
    this.parser = Objects.requireNonNull(parser, "parser");
    this.rowType = Objects.requireNonNull(rowType, "rowType");
  }

  /**
   * Applies the parser to {@code records}; get the dead letters with {@code
   * result.getSideOutput(ParseWithDeadLetters.DEAD_LETTERS)}.
   *
   * @param uid the operator's uid
   */
  public static <R, T> SingleOutputStreamOperator<T> fromJson(
      DataStream<R> records,
      RawValue<R> raw,
      RecordParser<T> parser,
      TypeInformation<T> rowType,
      String uid) {
    return records.process(new FromJson<>(raw, parser, rowType)).uid(uid).name("fromJson " + uid);
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
  public void processElement(R record, Context ctx, Collector<T> out) {
    T row;
    byte[] value = raw.value(record);
    try {
      if (value == null) {
        throw new RecordParseException("the record has no value (null, a tombstone)");
      }
      row = parser.parseUtf8(value);
    } catch (RecordParseException e) {
      rejected.inc();
      ctx.output(
          ParseWithDeadLetters.DEAD_LETTERS,
          new DeadLetter(
              value == null ? null : new String(value, StandardCharsets.UTF_8),
              e.getMessage(),
              raw.position(record),
              ctx.timerService().currentProcessingTime()));
      return;
    }
    parsed.inc();
    out.collect(row);
  }
}
