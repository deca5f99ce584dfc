package io.lakestream.connectors.delta.source.enumerator;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.connector.source.ReaderInfo;
import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.api.connector.source.SplitsAssignment;
import org.apache.flink.api.connector.source.mocks.MockSplitEnumeratorContext;
import org.junit.jupiter.api.Test;

class FileAdmissionTest {
  private record File(String id, long size) {}

  private record Split(String id) implements SourceSplit {
    @Override
    public String splitId() {
      return id;
    }
  }

  private final List<String> admitted = new ArrayList<>();

  private FileAdmission<File, Split> admission(
      MockSplitEnumeratorContext<Split> context, DeltaSourceLimits limits, List<Split> pending) {
    return new FileAdmission<>(
        context,
        limits,
        pending,
        File::size,
        file -> {
          admitted.add(file.id());
          return new Split(file.id());
        });
  }

  private static MockSplitEnumeratorContext<Split> context() {
    MockSplitEnumeratorContext<Split> context = new MockSplitEnumeratorContext<>(2);
    context.registerReader(new ReaderInfo(0, "localhost"));
    context.registerReader(new ReaderInfo(1, "localhost"));
    return context;
  }

  private static List<String> assigned(MockSplitEnumeratorContext<Split> context) {
    List<String> ids = new ArrayList<>();
    for (SplitsAssignment<Split> a : context.getSplitsAssignmentSequence()) {
      a.assignment().values().forEach(splits -> splits.forEach(s -> ids.add(s.splitId())));
    }
    return ids;
  }

  private static DeltaSourceLimits limits(int maxFiles, long maxBytes, long endVersion) {
    return new DeltaSourceLimits(maxFiles, maxBytes, false, 1_000, endVersion, false);
  }

  @Test
  void admitsAtMostMaxFilesPerEpochInOrder() {
    MockSplitEnumeratorContext<Split> context = context();
    FileAdmission<File, Split> admission = admission(context, limits(2, 0, -1), List.of());
    admission.addDiscovered(List.of(new File("a", 1), new File("b", 1), new File("c", 1)));
    admission.addWaiting(0);
    admission.addWaiting(1);
    admission.assign();
    assertThat(assigned(context)).containsExactly("a", "b");

    admission.addWaiting(0);
    admission.assign();
    assertThat(assigned(context)).containsExactly("a", "b"); // the epoch's two files are out
    assertThat(admission.drained()).isFalse();

    admission.startEpoch();
    admission.assign();
    assertThat(assigned(context)).containsExactly("a", "b", "c");
    assertThat(admitted).containsExactly("a", "b", "c");
    assertThat(admission.drained()).isTrue();
  }

  @Test
  void maxBytesPerTriggerIsSoftAndGivenBackSplitsComeFirst() {
    MockSplitEnumeratorContext<Split> context = context();
    FileAdmission<File, Split> admission = admission(context, limits(1000, 10, -1), List.of());
    admission.addDiscovered(List.of(new File("a", 8), new File("b", 8), new File("c", 8)));
    admission.addWaiting(0);
    admission.addWaiting(1);
    admission.assign();
    // "b" crosses the 10 bytes and is still admitted; "c" waits for the next epoch
    assertThat(assigned(context)).containsExactly("a", "b");

    admission.addBack(List.of(new Split("a"), new Split("b")), 0);
    assertThat(admission.pending()).containsExactly(new Split("a"), new Split("b"));
    admission.addWaiting(0);
    admission.addWaiting(1);
    admission.assign();
    assertThat(assigned(context)).containsExactly("a", "b", "a", "b");
    assertThat(admitted).containsExactly("a", "b"); // handed out again, not admitted again
  }

  @Test
  void discoveryStopsAtTheEndVersionAndReadsAtMostOneHundredVersionsPerRound() {
    FileAdmission<File, Split> bounded = admission(context(), limits(1, 0, 5), List.of());
    assertThat(bounded.discoverThrough(0, 1_000)).isEqualTo(5);
    assertThat(bounded.mayDiscoverAfter(4)).isTrue();
    assertThat(bounded.mayDiscoverAfter(5)).isFalse();

    FileAdmission<File, Split> unbounded = admission(context(), limits(1, 0, -1), List.of());
    assertThat(unbounded.discoverThrough(0, 1_000)).isEqualTo(100);
    assertThat(unbounded.discoverThrough(0, 7)).isEqualTo(7);
    assertThat(unbounded.mayDiscoverAfter(1_000_000)).isTrue();
  }

  @Test
  void discoveryPausesWhenTheReadAheadIsFull() {
    FileAdmission<File, Split> admission = admission(context(), limits(1, 0, -1), List.of());
    List<File> files = new ArrayList<>();
    for (int i = 0; i < 1_000; i++) {
      files.add(new File("f" + i, 1));
    }
    admission.addDiscovered(files.subList(0, 999));
    assertThat(admission.mayDiscoverAfter(0)).isTrue();
    admission.addDiscovered(files.subList(999, 1_000));
    assertThat(admission.mayDiscoverAfter(0)).isFalse(); // readAhead: max(1000, 2 * 1)
  }
}
