/**
 * The Kafka sink, with Spark's options ({@link
 * io.lakestream.connectors.kafka.sink.KafkaSinkOptions}): build it with {@link
 * io.lakestream.connectors.kafka.sink.KafkaSinkBuilder}, taking each record's key, value, topic and
 * partition from the row's {@link io.lakestream.connectors.kafka.sink.KafkaColumn}s. Exactly-once
 * by default (one Kafka transaction per writer and epoch, committed when the checkpoint completes;
 * read with {@code isolation.level=read_committed}), or at-least-once. {@code build()} checks the
 * options and the transaction timeout against the checkpoint interval and the brokers' limit; a row
 * that cannot become a record fails the job with {@link
 * io.lakestream.connectors.kafka.sink.KafkaSinkRecordException}, never dropped.
 */
package io.lakestream.connectors.kafka.sink;
