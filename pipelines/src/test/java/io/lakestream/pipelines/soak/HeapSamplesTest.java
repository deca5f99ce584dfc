package io.lakestream.pipelines.soak;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HeapSamplesTest {
  @TempDir Path dir;

  @Test
  void readsTheLiveHeapAfterTheLastRequestedFullCollectionFromAGcLog() throws Exception {
    Path log = dir.resolve("gc.log");
    Files.write(
        log,
        List.of(
            "[0.010s][info][gc] Using G1",
            "[5.100s][info][gc] GC(0) Pause Young (Normal) (G1 Evacuation Pause) 24M->6M(256M)"
                + " 3.1ms",
            "[9.200s][info][gc] GC(1) Pause Full (System.gc()) 120M->57M(256M) 80.2ms",
            "[19.20s][info][gc] GC(2) Pause Young (Normal) (G1 Evacuation Pause) 90M->70M(256M)"
                + " 2.0ms",
            "[29.20s][info][gc] GC(3) Pause Full (Diagnostic Command) 130M->61M(256M) 81.0ms"));

    assertThat(HeapSamples.fullCollections(log)).isEqualTo(new HeapSamples.FullCollections(2, 61));
    assertThat(HeapSamples.fullCollections(dir.resolve("none")))
        .isEqualTo(new HeapSamples.FullCollections(0, -1));
  }

  @Test
  void aLiveHeapThatWandersIsFlatAndOneThatGrowsEveryRoundIsNot() {
    List<Long> wandering = new ArrayList<>();
    List<Long> leaking = new ArrayList<>();
    for (int round = 0; round < 120; round++) {
      wandering.add(60L + (round * 7) % 15);
      leaking.add(60L + round); // 1 MiB per round: 40 MiB more by the last third
    }

    assertThat(HeapSamples.flat(wandering)).isTrue();
    assertThat(HeapSamples.flat(leaking)).isFalse();
    assertThat(HeapSamples.flat(List.of(10L, 500L))).as("too few samples to judge").isTrue();
  }
}
