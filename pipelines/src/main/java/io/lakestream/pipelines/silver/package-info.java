/**
 * Pipeline E3, the silver job ({@link io.lakestream.pipelines.silver.OrdersSilver}): Kafka {@code
 * orders} -> {@code fromJson} -> watermark -> {@code dropDuplicatesWithinWatermark(event_id)} ->
 * foreachBatch ({@link io.lakestream.pipelines.silver.SilverEpochFunction}): valid orders ({@link
 * io.lakestream.pipelines.silver.OrderValidation}) are MERGEd into {@code orders_silver}, every
 * other record is appended to {@code orders_silver_quarantine} with its {@link
 * io.lakestream.pipelines.silver.RejectReason}; nothing is dropped silently. Each table commits
 * with its own {@code txn}, so a replayed epoch is skipped by each table that holds it. The tables
 * and row conversions are in {@link io.lakestream.pipelines.silver.OrdersSilverTables}.
 */
package io.lakestream.pipelines.silver;
