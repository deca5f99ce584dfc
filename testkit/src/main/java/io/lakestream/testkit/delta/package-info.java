/**
 * Checks on Delta tables written by tests: {@link io.lakestream.testkit.delta.DeltaLogTxns} reads
 * the {@code txn} actions straight from {@code _delta_log} (local or on the test S3 server) to show
 * that each epoch of a query landed in exactly one table version, which row checks alone cannot;
 * failures are {@link AssertionError}s naming the versions and epochs.
 */
package io.lakestream.testkit.delta;
