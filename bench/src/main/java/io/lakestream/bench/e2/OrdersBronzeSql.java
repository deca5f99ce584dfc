package io.lakestream.bench.e2;

import io.lakestream.sql.SqlDataflow;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Pipeline E2 written in Flink SQL, for {@code bin/bench e2-bronze-sql}: the Kafka topic as a
 * {@code spark-kafka} table with {@code format = 'json'} (malformed records to a dead-letter Delta
 * table), a 1 h watermark on {@code order_ts}, the first row per {@code event_id} kept ({@code
 * ROW_NUMBER() ... = 1}, Flink SQL's deduplication, its state bounded by {@code
 * table.exec.state.ttl} = the watermark delay), appended to the {@code orders_bronze} Delta table
 * partitioned by currency, the same table {@link io.lakestream.pipelines.bronze.OrdersBronze}
 * writes.
 *
 * <p>Flink SQL has no {@code dropDuplicatesWithinWatermark}: the state TTL frees a key an hour of
 * processing time after it was last seen, where the DataStream query frees it when the watermark
 * passes; with every duplicate within the hour (the bench's input) both keep the same rows.
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
        SET 'table.exec.state.ttl' = '1 h';
        CREATE TABLE orders (
          event_id STRING, order_id STRING, customer_id STRING, amount DECIMAL(12, 2),
          currency STRING, order_ts TIMESTAMP_LTZ(3), seen AS PROCTIME(),
          WATERMARK FOR order_ts AS order_ts - INTERVAL '1' HOUR
        ) WITH (
            'connector' = 'spark-kafka', 'format' = 'json',
            'deadLetterTable' = %s,
            %s);
        CREATE TABLE orders_bronze (
          event_id STRING, order_id STRING, customer_id STRING, amount DECIMAL(12, 2),
          currency STRING, order_ts TIMESTAMP_LTZ(6)
        ) PARTITIONED BY (currency) WITH ('connector' = 'delta', 'path' = %s);
        INSERT INTO orders_bronze
        SELECT event_id, order_id, customer_id, amount, currency, CAST(order_ts AS TIMESTAMP_LTZ(6))
        FROM (
          SELECT *, ROW_NUMBER() OVER (PARTITION BY event_id ORDER BY seen) AS first_seen
          FROM orders)
        WHERE first_seen = 1;
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
