/**
 * A real Kafka 4.x broker for tests ({@link io.lakestream.testkit.kafka.KafkaBroker}, {@link
 * io.lakestream.testkit.kafka.KafkaBrokerExtension}): single-node KRaft in a child JVM on
 * 127.0.0.1, optionally with SCRAM over plaintext and TLS listeners. {@code start()} returns only
 * once the broker answers, else throws {@link
 * io.lakestream.testkit.kafka.KafkaBrokerStartException} with its log's tail; the child never
 * outlives the test JVM. Admin helpers fail with {@link
 * io.lakestream.testkit.kafka.KafkaAdminException}.
 */
package io.lakestream.testkit.kafka;
