/**
 * {@code e2-bronze} ({@link io.lakestream.bench.e2.E2BronzeBench}): pipeline E2 on lakestream
 * ({@link io.lakestream.bench.e2.LakestreamBronzeMain}) against Spark Structured Streaming with
 * delta-spark running the same query, and a plain Kafka consumer as the ceiling ({@link
 * io.lakestream.bench.e2.RawConsumerMain}). Each side runs in its own JVM ({@link
 * io.lakestream.bench.e2.ChildJvm}), so its CPU time and peak memory are its own, and reports one
 * {@link io.lakestream.bench.e2.ChildReport} line.
 */
package io.lakestream.bench.e2;
