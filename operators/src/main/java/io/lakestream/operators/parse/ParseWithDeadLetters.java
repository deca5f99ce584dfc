package io.lakestream.operators.parse;

import io.lakestream.api.annotation.PublicEvolving;
import java.util.Objects;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * Parses raw records; good ones go to the main output, bad ones to the {@link #DEAD_LETTERS} side
 * output with the reason. Nothing is dropped silently and a bad record never fails the query.
 *
 * <p>Counts rows in metrics {@code numRowsParsed} and {@code numDeadLetters}. Only {@link
 * RecordParseException} is treated as bad input; any other exception is a bug in the parser and
 * fails the task, so it is not mistaken for bad data.
 *
 * @param <T> the parsed row type
 */
@PublicEvolving
public class ParseWithDeadLetters<T> extends ProcessFunction<String, T>
    implements ResultTypeQueryable<T> {
  private static final long serialVersionUID = 1L;

  /** The side output carrying rejected records. */
  public static final OutputTag<DeadLetter> DEAD_LETTERS =
      new OutputTag<>("dead-letters", TypeInformation.of(DeadLetter.class));

  private final RecordParser<T> parser;
  private final TypeInformation<T> rowType;
  private final String sourceName;
  private transient Counter parsed;
  private transient Counter rejected;

  /**
   * @param parser the parser
   * @param rowType the parsed row type (a POJO or other non-generic type)
   * @param sourceName names the source in dead letters (for example the topic or the generator)
   */
  public ParseWithDeadLetters(
      RecordParser<T> parser, TypeInformation<T> rowType, String sourceName) {
    this.parser = Objects.requireNonNull(parser, "parser");
    this.rowType = Objects.requireNonNull(rowType, "rowType");
    this.sourceName = Objects.requireNonNull(sourceName, "sourceName");
  }

  @Override
  public void open(org.apache.flink.api.common.functions.OpenContext openContext) {
    parsed = getRuntimeContext().getMetricGroup().counter("numRowsParsed");
    rejected = getRuntimeContext().getMetricGroup().counter("numDeadLetters");
  }

  @Override
  public TypeInformation<T> getProducedType() {
    return rowType;
  }

  @Override
  public void processElement(String raw, Context ctx, Collector<T> out) {
    T row;
    try {
      row = parser.parse(raw);
    } catch (RecordParseException e) {
      rejected.inc();
      ctx.output(
          DEAD_LETTERS,
          new DeadLetter(
              raw, e.getMessage(), sourceName, ctx.timerService().currentProcessingTime()));
      return;
    }
    parsed.inc();
    out.collect(row);
  }
}
