/**
 * The child JVM side of the test Kafka broker: {@link
 * io.lakestream.testkit.kafka.ParentWatchingLauncher} formats the broker's storage and runs it, and
 * halts (deleting the broker's directory) when its standard input from the parent reaches
 * end-of-file, so the broker dies with the test JVM. Kept in its own module so the broker's jars
 * never reach the tests' class path.
 */
package io.lakestream.testkit.kafka;
