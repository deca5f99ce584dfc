/**
 * Put-if-absent Delta commits on S3: {@link
 * io.lakestream.connectors.delta.logstore.S3ConditionalPutLogStore} writes {@code
 * _delta_log/N.json} with an S3 conditional PUT, so of two writers racing for a version exactly one
 * wins (it never falls back to an unconditional write), and {@link
 * io.lakestream.connectors.delta.logstore.LogStoreSelection} makes Kernel's engine use it for
 * {@code s3a://} (and S3A-backed {@code s3://}) unless the user configured a log store. Other
 * schemes keep Kernel's defaults.
 */
package io.lakestream.connectors.delta.logstore;
