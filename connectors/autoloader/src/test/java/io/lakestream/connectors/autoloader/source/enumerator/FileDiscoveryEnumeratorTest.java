package io.lakestream.connectors.autoloader.source.enumerator;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.connectors.autoloader.discovery.FileLister;
import io.lakestream.connectors.autoloader.source.split.FileBatchSplit;
import io.lakestream.connectors.source.EpochPositions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.api.connector.source.ReaderInfo;
import org.apache.flink.api.connector.source.SplitsAssignment;
import org.apache.flink.api.connector.source.mocks.MockSplitEnumeratorContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Discovery on local files: per-epoch limits (files hard, bytes soft), maxFileAge,
 * includeExistingFiles=false, a full listing after N incremental ones handing out a file written
 * below the cursor, and one listing for the catch-up epochs Flink runs back to back.
 */
class FileDiscoveryEnumeratorTest {
  @TempDir Path dir;

  private static final long NOW = System.currentTimeMillis();

  private void file(String key, int bytes, long modifiedMillis) throws IOException {
    Path f = dir.resolve(key);
    Files.createDirectories(f.getParent());
    Files.write(f, new byte[bytes]);
    Files.setLastModifiedTime(f, FileTime.fromMillis(modifiedMillis));
  }

  private static DiscoverySettings settings(
      int maxFiles, long maxBytes, int perBackfill, long maxAge) {
    return new DiscoverySettings(maxFiles, maxBytes, false, perBackfill, 0, maxAge, -1, 1_000);
  }

  private FileDiscoveryEnumerator enumerator(
      MockSplitEnumeratorContext<FileBatchSplit> context,
      DiscoveryState state,
      DiscoverySettings settings)
      throws IOException {
    FileDiscoveryEnumerator enumerator =
        FileDiscoveryEnumerator.listing(
            context,
            state,
            settings,
            FileLister.open(dir.toUri().toString(), Map.of()),
            new EpochPositions(null, "files"),
            System::currentTimeMillis);
    enumerator.start();
    return enumerator;
  }

  private static MockSplitEnumeratorContext<FileBatchSplit> context() {
    MockSplitEnumeratorContext<FileBatchSplit> context = new MockSplitEnumeratorContext<>(1);
    context.registerReader(new ReaderInfo(0, "localhost"));
    return context;
  }

  /** Runs queued listings and coordinator work; returns the keys assigned so far. */
  private static List<String> assigned(MockSplitEnumeratorContext<FileBatchSplit> context)
      throws Throwable {
    // the mock runs a listing's result handler on its coordinator thread after the listing:
    // settle until no listing is queued and the coordinator thread had time to run handlers
    int idle = 0;
    while (idle < 3) {
      context.getSentSourceEvent(); // runs what is queued in the coordinator thread
      if (context.getOneTimeCallables().isEmpty()) {
        idle++;
        Thread.sleep(30);
      } else {
        idle = 0;
        context.runNextOneTimeCallable();
      }
    }
    List<String> keys = new ArrayList<>();
    for (SplitsAssignment<FileBatchSplit> a : context.getSplitsAssignmentSequence()) {
      a.assignment()
          .values()
          .forEach(s -> s.forEach(split -> split.files().forEach(f -> keys.add(f.key))));
    }
    return keys;
  }

  @Test
  void limitsPerEpochAndMaxFileAge() throws Throwable {
    file("d=1/a.json", 100, NOW - Duration.ofDays(10).toMillis()); // too old
    file("d=1/b.json", 100, NOW);
    file("d=1/c.json", 100, NOW);
    file("d=2/d.json", 100, NOW);
    file("d=2/e.json", 100, NOW);
    MockSplitEnumeratorContext<FileBatchSplit> context = context();
    FileDiscoveryEnumerator enumerator =
        enumerator(
            context,
            DiscoveryState.initial(Long.MIN_VALUE),
            settings(3, 150, 0, Duration.ofDays(7).toMillis()));
    enumerator.handleSplitRequest(0, "localhost");
    // 150 bytes is soft: b (100) is under it, c crosses it; nothing more this epoch
    assertThat(assigned(context)).containsExactly("d=1/b.json", "d=1/c.json");
    enumerator.handleSplitRequest(0, "localhost");
    assertThat(assigned(context)).hasSize(2);

    DiscoveryState checkpoint = enumerator.snapshotState(1);
    assertThat(checkpoint.cursor()).isEqualTo("d=2/e.json");
    assertThat(checkpoint.filesAdmitted()).isEqualTo(2);
    assertThat(checkpoint.pending())
        .extracting(f -> f.key)
        .containsExactly("d=2/d.json", "d=2/e.json");
    assertThat(assigned(context))
        .containsExactly("d=1/b.json", "d=1/c.json", "d=2/d.json", "d=2/e.json");

    // maxFilesPerTrigger is hard
    file("d=3/f.json", 1, NOW);
    file("d=3/g.json", 1, NOW);
    file("d=3/h.json", 1, NOW);
    file("d=3/i.json", 1, NOW);
    MockSplitEnumeratorContext<FileBatchSplit> restored = context();
    FileDiscoveryEnumerator again = enumerator(restored, checkpoint, settings(3, 0, 0, 0));
    again.handleSplitRequest(0, "localhost");
    assertThat(assigned(restored)).containsExactly("d=2/d.json", "d=2/e.json");
    again.handleSplitRequest(0, "localhost"); // the reader emitted them and asks again
    assertThat(assigned(restored)).containsExactly("d=2/d.json", "d=2/e.json", "d=3/f.json");
    again.handleSplitRequest(0, "localhost");
    assertThat(assigned(restored)).hasSize(3);
  }

  @Test
  void withoutExistingFilesOnlyLaterOnesAreIngested() throws Throwable {
    file("d=1/old.json", 10, NOW - 60_000);
    MockSplitEnumeratorContext<FileBatchSplit> context = context();
    FileDiscoveryEnumerator enumerator =
        enumerator(context, DiscoveryState.initial(NOW - 1_000), settings(100, 0, 0, 0));
    enumerator.handleSplitRequest(0, "localhost");
    assertThat(assigned(context)).isEmpty();
    file("d=0/new-but-low-key.json", 10, NOW);
    file("d=2/new.json", 10, NOW);
    enumerator.snapshotState(1); // next epoch lists again
    assertThat(assigned(context)).containsExactly("d=2/new.json");
  }

  @Test
  void fullListingAfterIncrementalOnesHandsOutAFileBelowTheCursor() throws Throwable {
    file("d=1/a.json", 10, NOW);
    file("d=2/b.json", 10, NOW);
    MockSplitEnumeratorContext<FileBatchSplit> context = context();
    FileDiscoveryEnumerator enumerator =
        enumerator(context, DiscoveryState.initial(Long.MIN_VALUE), settings(100, 0, 2, 0));
    enumerator.handleSplitRequest(0, "localhost");
    assertThat(assigned(context)).containsExactly("d=1/a.json", "d=2/b.json");

    file("d=1/late.json", 10, NOW); // below the cursor d=2/b.json
    enumerator.handleSplitRequest(0, "localhost"); // incremental listing #2: misses it
    assertThat(assigned(context)).hasSize(2);
    enumerator.snapshotState(1); // full listing: every file up to the cursor, as candidates
    List<String> keys = assigned(context);
    assertThat(keys.subList(2, keys.size()))
        .containsExactly("d=1/a.json", "d=1/late.json", "d=2/b.json");
    DiscoveryState state = enumerator.snapshotState(3);
    assertThat(state.filesAdmitted()).as("candidates are not new admissions").isEqualTo(2);
    assertThat(state.backfillCursor()).isNull();
  }

  @Test
  void anAvailableNowRunReadsAFileThatArrivedBelowTheCursor() throws Throwable {
    file("region=eu/a.json", 10, NOW - 10_000);
    file("region=us/b.json", 10, NOW - 10_000);
    MockSplitEnumeratorContext<FileBatchSplit> first = context();
    FileDiscoveryEnumerator run = enumerator(first, DiscoveryState.initial(Long.MIN_VALUE), now(7));
    run.handleSplitRequest(0, "localhost");
    assertThat(assigned(first)).containsExactly("region=eu/a.json", "region=us/b.json");
    DiscoveryState end = run.snapshotState(1);
    assertThat(end.cursor()).isEqualTo("region=us/b.json");

    file("region=eu/late.json", 10, NOW - 5_000); // below the cursor
    for (int perBackfill : new int[] {7, 1}) { // useIncrementalListing auto, false
      MockSplitEnumeratorContext<FileBatchSplit> next = context();
      FileDiscoveryEnumerator again = enumerator(next, end, now(perBackfill));
      again.handleSplitRequest(0, "localhost");
      assertThat(assigned(next))
          .as("the next availableNow run lists below the cursor (every %d)", perBackfill)
          .contains("region=eu/late.json");
    }
    MockSplitEnumeratorContext<FileBatchSplit> incrementalOnly = context();
    enumerator(incrementalOnly, end, now(0)).handleSplitRequest(0, "localhost");
    assertThat(assigned(incrementalOnly))
        .as("useIncrementalListing = true: only after the cursor, as documented")
        .isEmpty();
  }

  @Test
  void catchUpEpochsBackToBackListOnceAndACutListingContinuesAtOnce() throws Throwable {
    for (String key : List.of("d=1/a.json", "d=1/b.json", "d=2/c.json", "d=2/d.json")) {
      file(key, 10, NOW);
    }
    AtomicLong clock = new AtomicLong(NOW);
    MockSplitEnumeratorContext<FileBatchSplit> context = context();
    // pages of 2 files, a checkpoint every 1 s: a new listing at most every 500 ms
    DiscoverySettings settings =
        new DiscoverySettings(100, 0, false, 0, 0, 0, -1, 2).forCheckpointInterval(1_000);
    FileDiscoveryEnumerator enumerator =
        FileDiscoveryEnumerator.listing(
            context,
            DiscoveryState.initial(Long.MIN_VALUE),
            settings,
            FileLister.open(dir.toUri().toString(), Map.of()),
            new EpochPositions(null, "files"),
            clock::get);
    enumerator.start();
    enumerator.handleSplitRequest(0, "localhost");
    assertThat(assigned(context)).hasSize(2);
    // the cut listing went on at once (the clock stood still): both pages of 2 files
    DiscoveryState first = enumerator.snapshotState(1);
    assertThat(first.cursor()).isEqualTo("d=2/d.json");
    long calls = first.listingCalls();
    assertThat(calls).isPositive();
    enumerator.handleSplitRequest(0, "localhost");
    assertThat(assigned(context)).hasSize(4);

    file("d=3/e.json", 10, NOW);
    for (int epoch = 2; epoch <= 6; epoch++) { // queued checkpoints, 20 ms apart
      clock.addAndGet(20);
      enumerator.handleSplitRequest(0, "localhost");
      assertThat(enumerator.snapshotState(epoch).listingCalls()).isEqualTo(calls);
      assertThat(assigned(context)).hasSize(4);
    }
    clock.addAndGet(500); // the next periodic checkpoint
    enumerator.snapshotState(7);
    assertThat(assigned(context)).hasSize(5).endsWith("d=3/e.json");
    assertThat(enumerator.snapshotState(8).listingCalls()).isGreaterThan(calls);
  }

  /** availableNow settings of a run starting now. */
  private static DiscoverySettings now(int perBackfill) {
    return new DiscoverySettings(100, 0, false, perBackfill, 0, 0, NOW, 1_000);
  }
}
