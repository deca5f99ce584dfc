package io.lakestream.connectors.autoloader.source.enumerator;

import java.io.Closeable;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * Where an Auto Loader enumerator finds new files, one asynchronous call at a time: incremental
 * listings of the input path ({@link ListingDiscovery}) or S3 event notifications from an SQS queue
 * ({@link NotificationDiscovery}); both also run full listings ({@link InputListing}) that queue
 * candidates. What a call finds goes into the {@link FileBatchAdmission}.
 *
 * <p>Called from the enumerator's coordinator thread; the calls run in its worker thread. A call
 * that fails fails the job with a {@link org.apache.flink.util.FlinkRuntimeException} saying what
 * could not be read.
 */
interface FileDiscovery extends Closeable {

  /** Receives the end of a call, on the coordinator thread, after its files were queued. */
  interface Done {
    /**
     * @param filesFound files the call returned (before the admission filtered them)
     * @param callAgain whether to call again at once; asked after the queued files were handed out
     */
    void found(int filesFound, BooleanSupplier callAgain);
  }

  /** Whether this run has nothing left to discover (an availableNow run listed everything). */
  boolean exhausted();

  /** Starts the next call; {@code done} runs when it has ended. */
  void next(Done done);

  /** The greatest key incremental listings have seen, for the checkpoint ({@code ""}: none). */
  String cursor();

  /** Incremental listings since the last full one, for the checkpoint. */
  int incrementalListings();

  /** A checkpoint is taken: what was discovered so far is in it. */
  default void onCheckpoint(long checkpointId) {}

  /** Checkpoint {@code checkpointId} completed. */
  default void onCheckpointComplete(long checkpointId) {}

  /** Adds this mode's own metrics to the source's progress metrics. */
  default void addMetrics(Map<String, Object> metrics) {}
}
