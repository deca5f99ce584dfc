/**
 * The demo, a medallion that needs no external service: bronze ({@link
 * io.lakestream.pipelines.demo.OrdersDemo}: generated order events with duplicates, late and
 * malformed records -> parse with dead letters -> watermark -> dropDuplicatesWithinWatermark -> the
 * exactly-once Delta table {@code orders} and a JSON-lines quarantine), then, in an embedded run,
 * silver ({@link io.lakestream.pipelines.demo.DemoSilver}: MERGE with change data feed and a
 * quarantine) and gold ({@link io.lakestream.pipelines.demo.DemoGold}: daily totals from silver's
 * change feed) and the Lakebase stage ({@link io.lakestream.pipelines.demo.DemoLakebase}: the daily
 * totals upserted exactly once into a PostgreSQL table on the demo's own embedded server, {@link
 * io.lakestream.pipelines.demo.DemoPostgres}), each its own availableNow query, and a {@link
 * io.lakestream.pipelines.demo.DemoSummary}; a run with a larger {@code --rows} continues where the
 * last stopped. Also the order row ({@link io.lakestream.pipelines.demo.Order}, a Kryo-free POJO
 * held in state), its JSON ({@link io.lakestream.pipelines.demo.OrderJson}) and the Kafka {@code
 * orders} topic the bronze and silver jobs read ({@link io.lakestream.pipelines.demo.OrdersTopic}).
 */
package io.lakestream.pipelines.demo;
