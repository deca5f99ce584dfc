package io.lakestream.bench.merge;

import java.util.Locale;

/**
 * How the merge bench's MERGE writes its changes, and so which bench it is: {@code merge}
 * (copy-on-write: a file with a matched row is rewritten whole) or {@code merge-dv} (merge-on-read:
 * the table has {@code delta.enableDeletionVectors=true}, matched rows are marked deleted in their
 * file by a deletion vector and only the new rows are written, by lakestream and by Spark alike).
 *
 * <p>{@link #check} holds each side to the mode: a side that copied no row in copy-on-write, or
 * copied any in merge-on-read, did not do what the bench measures, and the bench fails.
 */
public enum MergeMode {
  /** Files holding a matched row are rewritten (the table has no deletion vectors). */
  COPY_ON_WRITE("merge", false, "copy-on-write", "files rewritten"),
  /** Matched rows get deletion vectors; no unchanged row is copied. */
  DELETION_VECTORS(
      "merge-dv",
      true,
      "deletion vectors",
      "files given a new deletion vector (removed + re-added)");

  private final String benchId;
  private final boolean deletionVectors;
  private final String label;
  private final String removedFiles;

  MergeMode(String benchId, boolean deletionVectors, String label, String removedFiles) {
    this.benchId = benchId;
    this.deletionVectors = deletionVectors;
    this.label = label;
    this.removedFiles = removedFiles;
  }

  /** The bench id ({@code bin/bench <id>}). */
  public String benchId() {
    return benchId;
  }

  /** Whether the target table enables deletion vectors and the MERGE writes them. */
  public boolean deletionVectors() {
    return deletionVectors;
  }

  /** A short name for reports: "copy-on-write" or "deletion vectors". */
  public String label() {
    return label;
  }

  /** What a MERGE's removed files are in this mode, for report headers. */
  String removedFiles() {
    return removedFiles;
  }

  /**
   * Checks that an epoch of {@code side} was written in this mode: with deletion vectors no
   * unchanged row may be copied; copy-on-write must copy the unchanged rows of the files it
   * rewrites (this workload updates one row in four of a file's keys, so always some).
   *
   * @throws IllegalStateException naming the side, epoch and rows copied
   */
  public void check(String side, EpochTiming epoch) {
    boolean ok = deletionVectors ? epoch.copied() == 0 : epoch.copied() > 0;
    if (!ok) {
      throw new IllegalStateException(
          String.format(
              Locale.ROOT,
              "%s: epoch %d copied %d unchanged rows, so it did not MERGE with %s (%s copies %s)",
              side,
              epoch.epoch(),
              epoch.copied(),
              label,
              label,
              deletionVectors ? "none" : "the unchanged rows of every rewritten file"));
    }
  }
}
