/**
 * Test support for real services, no mocks: the JUnit 5 base {@link
 * io.lakestream.testkit.ServiceExtension} (a service started once per class on a {@code static}
 * field, or per test on an instance field, and stopped afterwards), {@link
 * io.lakestream.testkit.OrphanReaper} (servers that detach from the test JVM die with it, even on
 * {@code kill -9}), {@link io.lakestream.testkit.FreePort} and {@link
 * io.lakestream.testkit.TempDirectory}. The services are in the subpackages: Kafka, S3, SQS,
 * PostgreSQL and Flink clusters.
 */
package io.lakestream.testkit;
