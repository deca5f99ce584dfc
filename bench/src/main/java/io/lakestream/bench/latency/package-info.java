/**
 * The latency benches of issue 25: {@code delta-freshness} ({@link
 * io.lakestream.bench.latency.DeltaFreshnessBench}, Kafka produce to the row visible to a Delta
 * reader) and {@code realtime-kafka-p99-ms} ({@link
 * io.lakestream.bench.latency.RealTimeKafkaBench}, Kafka produce to the result consumed from Kafka,
 * in realTime mode). Both pace one producer at a fixed rate, stamp each record with its send time
 * (microseconds of the machine's real-time clock, in the value) and compare it with the time the
 * record's result was seen on the same clock; every measured record must be seen, else the bench
 * fails.
 */
package io.lakestream.bench.latency;
