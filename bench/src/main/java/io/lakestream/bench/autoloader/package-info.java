/**
 * {@code autoloader-discovery} ({@link io.lakestream.bench.autoloader.AutoLoaderDiscoveryBench}):
 * the cost of finding new files in a large date-partitioned S3 prefix, Auto Loader against Flink's
 * {@code FileSource}, with S3 LIST requests counted on the wire by a proxy in front of the test S3
 * server; a lost or duplicated file fails the run.
 */
package io.lakestream.bench.autoloader;
