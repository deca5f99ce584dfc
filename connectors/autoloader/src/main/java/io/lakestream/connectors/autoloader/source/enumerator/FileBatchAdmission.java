package io.lakestream.connectors.autoloader.source.enumerator;

import io.lakestream.connectors.autoloader.discovery.DiscoveredFile;
import io.lakestream.connectors.autoloader.source.split.FileBatchSplit;
import io.lakestream.connectors.source.EpochQuota;
import io.lakestream.connectors.source.WaitingReaders;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;

/**
 * The epoch admission of an Auto Loader source: the discovered files not yet handed to a reader,
 * and the readers waiting for work. New files are handed out in the order they were found, within
 * the epoch's {@link EpochQuota} ({@code maxFilesPerTrigger} hard, {@code maxBytesPerTrigger}
 * soft); backfill candidates and files a failed reader had go first and outside the limits (the
 * ledger downstream drops those already read). Files go out in {@link FileBatchSplit}s of up to
 * {@value #FILES_PER_SPLIT} files.
 *
 * <p>A file is queued once however often discovery finds it while it waits here; files modified
 * before {@code ignoreBefore} (includeExistingFiles=false) or older than {@code maxFileAge} are not
 * queued. Coordinator thread only.
 */
final class FileBatchAdmission {
  static final int FILES_PER_SPLIT = 100;

  private final long ignoreBefore;
  private final long maxFileAgeMillis;
  private final EpochQuota quota;
  private final WaitingReaders<FileBatchSplit> readers;
  private final Deque<DiscoveredFile> pending;
  private final Deque<DiscoveredFile> candidates;
  private final Set<String> queuedKeys = new HashSet<>();
  private long filesAdmitted;

  /** The admission restored from {@code state} (its pending files, candidates and counter). */
  FileBatchAdmission(
      SplitEnumeratorContext<FileBatchSplit> context,
      DiscoverySettings settings,
      DiscoveryState state) {
    this.ignoreBefore = state.ignoreBefore();
    this.maxFileAgeMillis = settings.maxFileAgeMillis();
    this.quota =
        new EpochQuota(
            settings.maxFilesPerTrigger(), settings.maxBytesPerTrigger(), settings.ignoreLimits());
    this.readers = new WaitingReaders<>(context);
    this.filesAdmitted = state.filesAdmitted();
    this.pending = new ArrayDeque<>(state.pending());
    this.candidates = new ArrayDeque<>(state.candidates());
    pending.forEach(f -> queuedKeys.add(f.key));
    candidates.forEach(f -> queuedKeys.add(f.key));
  }

  /** Queues a new file (counted against the epoch's limits when handed out). */
  void offerNew(DiscoveredFile file, long now) {
    if (accepted(file, now) && queuedKeys.add(file.key)) {
      pending.add(file);
    }
  }

  /** Queues a file a full listing found at or before the cursor (outside the limits). */
  void offerCandidate(DiscoveredFile file, long now) {
    if (accepted(file, now) && queuedKeys.add(file.key)) {
      candidates.add(file);
    }
  }

  /** Files a failed reader had: already admitted, so back as candidates. */
  void addBack(List<FileBatchSplit> splits, int subtaskId) {
    for (FileBatchSplit split : splits) {
      for (DiscoveredFile file : split.files()) {
        if (queuedKeys.add(file.key)) {
          candidates.add(file);
        }
      }
    }
    readers.remove(subtaskId);
  }

  /** Reader {@code subtaskId} asks for work. */
  void addWaiting(int subtaskId) {
    readers.add(subtaskId);
  }

  /** Hands splits to the waiting readers while files and this epoch's limits allow. */
  void assign() {
    readers.assign(this::nextSplit);
  }

  /** A new epoch starts (a checkpoint was taken): its limits count from zero. */
  void startEpoch() {
    quota.startEpoch();
  }

  /** Files queued here (new and candidates). */
  int queued() {
    return pending.size() + candidates.size();
  }

  /** Bytes of the new files queued here. */
  long pendingBytes() {
    long bytes = 0;
    for (DiscoveredFile f : pending) {
      bytes += f.size;
    }
    return bytes;
  }

  /** Nothing is queued. */
  boolean drained() {
    return pending.isEmpty() && candidates.isEmpty();
  }

  /** Some reader waits for work. */
  boolean readersWaiting() {
    return !readers.isEmpty();
  }

  /** As many readers wait as the source has subtasks. */
  boolean allReadersWaiting() {
    return readers.all();
  }

  /** New files handed out so far (candidates not counted): the source's position. */
  long filesAdmitted() {
    return filesAdmitted;
  }

  /** Files modified before this are not ingested; {@link Long#MIN_VALUE} = none. */
  long ignoreBefore() {
    return ignoreBefore;
  }

  /** The new files queued, in order, for a checkpoint. */
  List<DiscoveredFile> pending() {
    return new ArrayList<>(pending);
  }

  /** The candidates queued, in order, for a checkpoint. */
  List<DiscoveredFile> candidates() {
    return new ArrayList<>(candidates);
  }

  private boolean accepted(DiscoveredFile file, long now) {
    return file.modificationTime >= ignoreBefore
        && (maxFileAgeMillis <= 0 || file.modificationTime >= now - maxFileAgeMillis);
  }

  /** Candidates first (no limits apply), then new files within this epoch's limits. */
  private FileBatchSplit nextSplit() {
    List<DiscoveredFile> files = new ArrayList<>();
    while (!candidates.isEmpty() && files.size() < FILES_PER_SPLIT) {
      DiscoveredFile file = candidates.poll();
      queuedKeys.remove(file.key);
      files.add(file);
    }
    while (!pending.isEmpty() && files.size() < FILES_PER_SPLIT && quota.hasRoom()) {
      DiscoveredFile file = pending.poll();
      queuedKeys.remove(file.key);
      files.add(file);
      quota.count(file.size);
      filesAdmitted++;
    }
    return files.isEmpty() ? null : new FileBatchSplit("files-" + UUID.randomUUID(), files);
  }
}
