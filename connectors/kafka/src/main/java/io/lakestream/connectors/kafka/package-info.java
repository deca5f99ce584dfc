/**
 * The Kafka connector, with the options and semantics of Spark's Kafka source and sink: the source
 * in {@link io.lakestream.connectors.kafka.source}, the sink in {@link
 * io.lakestream.connectors.kafka.sink}, connection and security options in {@link
 * io.lakestream.connectors.kafka.security}. Here: {@link
 * io.lakestream.connectors.kafka.KafkaRecord} (the source's rows, Spark's Kafka columns, a
 * Kryo-free POJO), {@link io.lakestream.connectors.kafka.KafkaErrorClass}, and {@link
 * io.lakestream.connectors.kafka.KafkaDataLossException}, which fails a query whose unread records
 * are gone unless {@code failOnDataLoss=false}.
 */
package io.lakestream.connectors.kafka;
