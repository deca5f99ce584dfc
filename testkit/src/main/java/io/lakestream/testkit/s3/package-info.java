/**
 * A real S3-API server for tests ({@link io.lakestream.testkit.s3.S3Server}, {@link
 * io.lakestream.testkit.s3.S3ServerExtension}): S3Proxy in this JVM on 127.0.0.1, objects stored as
 * files, one bucket. Conditional writes ({@code If-None-Match: *}) fail with HTTP 412 as on AWS,
 * and listings show only complete objects. {@link io.lakestream.testkit.s3.S3aSettings} points
 * Hadoop S3A at it; the server also gives the Flink configuration for {@code s3://} paths.
 */
package io.lakestream.testkit.s3;
