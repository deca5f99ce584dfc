package io.lakestream.connectors.autoloader.source.enumerator;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.connectors.autoloader.discovery.DiscoveredFile;
import io.lakestream.connectors.autoloader.source.split.FileBatchSplit;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.connector.source.ReaderInfo;
import org.apache.flink.api.connector.source.SplitsAssignment;
import org.apache.flink.api.connector.source.mocks.MockSplitEnumeratorContext;
import org.junit.jupiter.api.Test;

/**
 * The epoch admission without discovery: new files within the epoch's limits, candidates and
 * returned files first and outside them, each file queued once, too old files never.
 */
class FileBatchAdmissionTest {
  private static final long NOW = 1_000_000;

  private final MockSplitEnumeratorContext<FileBatchSplit> context =
      new MockSplitEnumeratorContext<>(1);

  private FileBatchAdmission admission(int maxFiles, long ignoreBefore, long maxAge) {
    context.registerReader(new ReaderInfo(0, "localhost"));
    return new FileBatchAdmission(
        context,
        new DiscoverySettings(maxFiles, 0, false, 0, 0, maxAge, -1, 1_000),
        DiscoveryState.initial(ignoreBefore));
  }

  private static DiscoveredFile file(String key, long modified) {
    return new DiscoveredFile(key, 10, modified);
  }

  private List<List<String>> splits() {
    List<List<String>> splits = new ArrayList<>();
    for (SplitsAssignment<FileBatchSplit> a : context.getSplitsAssignmentSequence()) {
      a.assignment().values().stream()
          .flatMap(List::stream)
          .forEach(split -> splits.add(split.files().stream().map(f -> f.key).toList()));
    }
    return splits;
  }

  @Test
  void newFilesWithinTheLimitsCandidatesFirstAndOutsideThem() {
    FileBatchAdmission admission = admission(2, Long.MIN_VALUE, 0);
    admission.offerNew(file("b", NOW), NOW);
    admission.offerNew(file("c", NOW), NOW);
    admission.offerNew(file("b", NOW), NOW); // found again while queued
    admission.offerNew(file("d", NOW), NOW);
    admission.offerCandidate(file("a", NOW), NOW);

    admission.addWaiting(0);
    admission.assign();
    admission.addWaiting(0);
    admission.assign();

    assertThat(splits()).containsExactly(List.of("a", "b", "c"));
    assertThat(admission.filesAdmitted()).as("the candidate is not a new admission").isEqualTo(2);
    assertThat(admission.pending()).extracting(f -> f.key).containsExactly("d");
    assertThat(admission.readersWaiting()).as("the epoch is full").isTrue();

    admission.startEpoch();
    admission.assign();
    assertThat(splits()).containsExactly(List.of("a", "b", "c"), List.of("d"));
    assertThat(admission.drained()).isTrue();
  }

  @Test
  void returnedFilesComeBackAsCandidatesAndOldFilesAreNeverQueued() {
    FileBatchAdmission admission = admission(1, NOW - 100, 50);
    admission.offerNew(file("before-start", NOW - 200), NOW);
    admission.offerNew(file("too-old", NOW - 60), NOW);
    admission.offerNew(file("new", NOW), NOW);
    assertThat(admission.queued()).isEqualTo(1);

    admission.addWaiting(0);
    admission.assign();
    admission.addBack(List.of(new FileBatchSplit("s", List.of(file("x", NOW), file("y", NOW)))), 0);
    admission.addWaiting(0);
    admission.assign();

    assertThat(splits()).containsExactly(List.of("new"), List.of("x", "y"));
    assertThat(admission.filesAdmitted()).isEqualTo(1);
  }
}
