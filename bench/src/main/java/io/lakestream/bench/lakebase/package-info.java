/**
 * The Lakebase benches: {@code lakebase-upsert} ({@link
 * io.lakestream.bench.lakebase.LakebaseUpsertBench}, rows per second of upserts into PostgreSQL,
 * the Lakebase sink against Flink's JDBC connector) and {@code lakebase-latency-p99-ms} ({@link
 * io.lakestream.bench.lakebase.LakebaseLatencyBench}, end-to-end latency from Kafka produce to the
 * row in PostgreSQL for a realTime query).
 */
package io.lakestream.bench.lakebase;
