/**
 * The demo, which needs no external service ({@link io.lakestream.pipelines.demo.OrdersDemo}):
 * generated order events with duplicates, late and malformed records -> parse with dead letters ->
 * watermark -> the exactly-once Delta table {@code orders} and a JSON-lines quarantine;
 * availableNow by default, so a run with a larger {@code --rows} continues where the last stopped.
 * Also the order row ({@link io.lakestream.pipelines.demo.Order}, a Kryo-free POJO held in state),
 * its JSON ({@link io.lakestream.pipelines.demo.OrderJson}) and the Kafka {@code orders} topic the
 * bronze and silver jobs read ({@link io.lakestream.pipelines.demo.OrdersTopic}).
 */
package io.lakestream.pipelines.demo;
