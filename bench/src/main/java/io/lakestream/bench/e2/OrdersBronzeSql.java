package io.lakestream.bench.e2;

import io.lakestream.sql.SqlDataflow;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Pipeline E2 written in Flink SQL, for {@code bin/bench e2-bronze-sql}: the Kafka topic as a
 * {@code spark-kafka} table with {@code format = 'json'} (malformed records to a dead-letter Delta
 * table), a 1 h watermark on {@code order_ts}, duplicates of an {@code event_id} within it dropped
 * (a {@code DROP_DUPLICATES_WITHIN_WATERMARK} view: the DataStream query's operator), appended to
 * the {@code orders_bronze} Delta table partitioned by currency, the same table {@link
 * io.lakestream.pipelines.bronze.OrdersBronze} writes.
 */
final class OrdersBronzeSql {
  private OrdersBronzeSql() {}

  static SqlDataflow dataflow(Path lake, Map<String, String> source) {
    String with =
        source.entrySet().stream()
            .map(e -> quote(e.getKey()) + " = " + quote(e.getValue()))
            .collect(Collectors.joining(",\n    "));
    return SqlDataflow.of(
        """
        CREATE TABLE orders (
          event_id STRING, order_id STRING, customer_id STRING, amount DECIMAL(12, 2),
          currency STRING, order_ts TIMESTAMP_LTZ(3),
          WATERMARK FOR order_ts AS order_ts - INTERVAL '1' HOUR
        ) WITH (
            'connector' = 'spark-kafka', 'format' = 'json',
            'deadLetterTable' = %s,
            %s);
        CREATE TABLE orders_bronze (
          event_id STRING, order_id STRING, customer_id STRING, amount DECIMAL(12, 2),
          currency STRING, order_ts TIMESTAMP_LTZ(6)
        ) PARTITIONED BY (currency) WITH ('connector' = 'delta', 'path' = %s);
        CREATE TEMPORARY VIEW unique_orders AS
        SELECT * FROM TABLE(DROP_DUPLICATES_WITHIN_WATERMARK(TABLE orders, DESCRIPTOR(event_id)));
        INSERT INTO orders_bronze
        SELECT event_id, order_id, customer_id, amount, currency, CAST(order_ts AS TIMESTAMP_LTZ(6))
        FROM unique_orders;
        """
            .formatted(
                quote(lake.resolve("orders_bronze_dead_letters").toUri().toString()),
                with,
                quote(lake.resolve("orders_bronze").toUri().toString())));
  }

  private static String quote(String text) {
    return "'" + text.replace("'", "''") + "'";
  }
}
