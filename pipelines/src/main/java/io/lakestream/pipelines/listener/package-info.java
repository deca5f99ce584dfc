/**
 * Ready-made query listeners: where a query's progress goes besides its checkpoint location and the
 * console, e.g. a Kafka topic that a dashboard or an alerting job reads.
 */
package io.lakestream.pipelines.listener;
