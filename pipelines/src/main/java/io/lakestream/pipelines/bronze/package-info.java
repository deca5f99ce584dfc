/**
 * Pipeline E2, the bronze job ({@link io.lakestream.pipelines.bronze.OrdersBronze}): Kafka topic
 * {@code orders} (JSON) -> {@code fromJson} with dead letters -> {@code withWatermark(order_ts, 1
 * hour)} -> {@code dropDuplicatesWithinWatermark(event_id)} -> the exactly-once Delta table {@code
 * orders_bronze}, malformed records into {@code orders_bronze_dead_letters}.
 */
package io.lakestream.pipelines.bronze;
