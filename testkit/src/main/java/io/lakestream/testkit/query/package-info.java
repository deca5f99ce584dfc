/**
 * Reading what a lakestream query recorded in its checkpoint location, for tests: the sinks' commit
 * records per epoch in a local location ({@link io.lakestream.testkit.query.EpochRecords}), and the
 * epochs, source positions and lease of a location on the test S3 server ({@link
 * io.lakestream.testkit.query.S3CheckpointLocation}); and waits on them.
 */
package io.lakestream.testkit.query;
