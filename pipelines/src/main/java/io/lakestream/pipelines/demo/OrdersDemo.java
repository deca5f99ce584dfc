package io.lakestream.pipelines.demo;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lakestream.connectors.files.JsonLinesFileSink;
import io.lakestream.connectors.files.RowEncoder;
import io.lakestream.connectors.rate.OrderEventGenerator;
import io.lakestream.connectors.rate.RateSources;
import io.lakestream.operators.parse.DeadLetter;
import io.lakestream.operators.parse.ParseWithDeadLetters;
import io.lakestream.pipelines.Pipeline;
import io.lakestream.pipelines.RunSettings;
import io.lakestream.pipelines.query.EpochProgressLog;
import io.lakestream.pipelines.query.Trigger;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The demo: generated order events (with duplicates, late and malformed records) -> parse with dead
 * letters -> event-time watermark -> exactly-once JSON-lines tables {@code orders} and {@code
 * orders_dead_letters}. Needs no external service and ends by itself after {@code rows} rows.
 */
public final class OrdersDemo implements Pipeline {
  private static final Logger LOG = LoggerFactory.getLogger(OrdersDemo.class);

  /** Fixed start of event time, so every run generates identical data. */
  static final Instant EVENT_TIME_START = Instant.parse("2026-01-01T00:00:00Z");

  static final long DEFAULT_ROWS = 20_000;
  static final int DUPLICATE_EVERY = 50;
  static final int MALFORMED_EVERY = 997;

  @Override
  public String name() {
    return "demo";
  }

  @Override
  public String description() {
    return "generated orders -> parse (dead letters) -> watermark -> JSON-lines tables; ends by"
        + " itself";
  }

  @Override
  public Trigger defaultTrigger() {
    return Trigger.processingTime(Duration.ofSeconds(2));
  }

  @Override
  public void prepare(RunSettings settings) throws IOException {
    for (String table : new String[] {"orders", "orders_dead_letters"}) {
      Path dir = new Path(new Path(settings.outputLocation()), table);
      FileSystem fs = dir.getFileSystem();
      if (fs.exists(dir)) {
        LOG.warn("demo: replacing the output of a previous demo run at {}", dir);
        fs.delete(dir, true);
      }
    }
  }

  @Override
  public void build(StreamExecutionEnvironment env, RunSettings settings) {
    long rows = settings.rows() > 0 ? settings.rows() : DEFAULT_ROWS;
    String out = settings.outputLocation().toString().replaceAll("/+$", "");
    OrderEventGenerator generator =
        new OrderEventGenerator(
            EVENT_TIME_START.toEpochMilli(),
            settings.rowsPerSecond(),
            DUPLICATE_EVERY,
            MALFORMED_EVERY);
    OrderJson json = new OrderJson();

    SingleOutputStreamOperator<Order> orders =
        env.fromSource(
                RateSources.strings(generator, rows, settings.rowsPerSecond()),
                WatermarkStrategy.noWatermarks(),
                "orders-generator")
            .uid("orders-generator")
            .process(
                new ParseWithDeadLetters<>(
                    json, TypeInformation.of(Order.class), "orders-generator"))
            .uid("parse-orders")
            .name("parse orders");

    orders
        .assignTimestampsAndWatermarks(
            WatermarkStrategy.<Order>forBoundedOutOfOrderness(Duration.ofSeconds(5))
                .withTimestampAssigner((order, ts) -> order.orderTsMillis))
        .uid("orders-watermark")
        .name("watermark order_ts - 5s")
        .sinkTo(
            JsonLinesFileSink.create(
                out + "/orders",
                json,
                new EpochProgressLog(settings.queryName(), "json-lines " + out + "/orders")))
        .uid("orders-sink")
        .name("orders table");

    orders
        .getSideOutput(ParseWithDeadLetters.DEAD_LETTERS)
        .sinkTo(
            JsonLinesFileSink.create(
                out + "/orders_dead_letters",
                new DeadLetterJson(),
                new EpochProgressLog(
                    settings.queryName(), "json-lines " + out + "/orders_dead_letters")))
        .uid("dead-letter-sink")
        .name("orders_dead_letters table");
  }

  /** Dead letters as JSON lines: raw, error, source, rejected_at. */
  static final class DeadLetterJson implements RowEncoder<DeadLetter> {
    private static final long serialVersionUID = 1L;
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @Override
    public String encode(DeadLetter letter) {
      ObjectNode node = MAPPER.createObjectNode();
      node.put("raw", letter.raw);
      node.put("error", letter.error);
      node.put("source", letter.source);
      node.put("rejected_at", Instant.ofEpochMilli(letter.rejectedAtMillis).toString());
      return node.toString();
    }
  }
}
