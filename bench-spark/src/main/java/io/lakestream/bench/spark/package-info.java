/**
 * The Spark sides of the benches, each run in its own JVM: pipeline E2 as Spark Structured
 * Streaming writes it ({@link io.lakestream.bench.spark.SparkBronzeMain}) and the foreachBatch
 * MERGE with delta-spark ({@link io.lakestream.bench.spark.SparkMergeMain}). Only in the reactor
 * with {@code -Pspark-bench}, so a default build never downloads or compiles Spark.
 */
package io.lakestream.bench.spark;
