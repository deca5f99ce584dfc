/**
 * The checkpoint location's lease on S3: {@link
 * io.lakestream.connectors.delta.lease.S3LeaseCreateFactory} gives the state module's {@link
 * io.lakestream.state.checkpoint.CreateIfAbsent} for {@code s3://} locations, the conditional PUT
 * ({@code If-None-Match: *}) Delta commits on S3 use, so two runs started at once on S3 cannot both
 * take a lease.
 */
package io.lakestream.connectors.delta.lease;
