/**
 * How the Kafka source and sink connect: the {@code kafka.}-prefixed connection options ({@link
 * io.lakestream.connectors.kafka.security.KafkaSecurityOptions}: servers, protocol, SASL, TLS,
 * Amazon MSK), validated into a {@link io.lakestream.connectors.kafka.security.KafkaClientSecurity}
 * before anything connects, and the sink's connection check at build time ({@link
 * io.lakestream.connectors.kafka.security.KafkaClusterInfo}). Failures: {@link
 * io.lakestream.connectors.kafka.security.InvalidKafkaOptionException} naming the option, {@link
 * io.lakestream.connectors.kafka.security.KafkaAuthenticationException} for a refused login or TLS
 * handshake, {@link io.lakestream.connectors.kafka.security.KafkaUnreachableException} for servers
 * that do not answer. Secrets never appear in messages, logs or {@code toString()}.
 */
package io.lakestream.connectors.kafka.security;
