package io.lakestream.connectors.delta.logstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link LocalLinkLogStore}: writers racing for one commit file, each with its own log store (as
 * engines have), find exactly one winner whose content stays; the losers get {@link
 * FileAlreadyExistsException}; no checksum or temporary file is left.
 */
class LocalLinkLogStoreTest {
  private static final int WRITERS = 6;
  private static final int ROUNDS = 150;

  @TempDir java.nio.file.Path dir;

  @Test
  void exactlyOneOfTheRacingWritersCreatesEachVersion() throws Exception {
    Configuration conf = new Configuration();
    Files.createDirectories(dir.resolve("_delta_log"));
    ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
    try {
      for (int round = 0; round < ROUNDS; round++) {
        Path version = new Path(dir.resolve(String.format("_delta_log/%020d.json", round)).toUri());
        CyclicBarrier start = new CyclicBarrier(WRITERS);
        List<Future<Boolean>> won = new ArrayList<>();
        for (int w = 0; w < WRITERS; w++) {
          String line = "{\"writer\":" + w + "}";
          won.add(
              pool.submit(
                  () -> {
                    LocalLinkLogStore store = new LocalLinkLogStore(conf);
                    start.await();
                    try {
                      store.write(version, List.of(line, line).iterator(), false, conf);
                      return true;
                    } catch (FileAlreadyExistsException e) {
                      return false;
                    }
                  }));
        }
        int winner = -1;
        for (int w = 0; w < WRITERS; w++) {
          if (won.get(w).get(30, TimeUnit.SECONDS)) {
            assertThat(winner).as("round %d: a second winner %d", round, w).isEqualTo(-1);
            winner = w;
          }
        }
        assertThat(winner).as("round %d has a winner", round).isNotNegative();
        String line = "{\"writer\":" + winner + "}";
        assertThat(Files.readString(java.nio.file.Path.of(version.toUri())))
            .isEqualTo(line + "\n" + line + "\n");
      }
    } finally {
      pool.shutdownNow();
    }
    try (Stream<java.nio.file.Path> files = Files.list(dir.resolve("_delta_log"))) {
      assertThat(files.map(p -> p.getFileName().toString()))
          .hasSize(ROUNDS)
          .allMatch(name -> name.matches("\\d{20}\\.json"));
    }
  }

  @Test
  void overwriteReplacesAndAbsentOnlyRefuses() throws Exception {
    Configuration conf = new Configuration();
    LocalLinkLogStore store = new LocalLinkLogStore(conf);
    Path last = new Path(dir.resolve("_delta_log/_last_checkpoint").toUri());
    store.write(last, List.of("a").iterator(), true, conf);
    store.write(last, List.of("b").iterator(), true, conf);
    assertThat(Files.readString(java.nio.file.Path.of(last.toUri()))).isEqualTo("b\n");
    assertThatThrownBy(() -> store.write(last, List.of("c").iterator(), false, conf))
        .isInstanceOf(FileAlreadyExistsException.class)
        .hasMessageContaining("_last_checkpoint");
    assertThat(Files.readString(java.nio.file.Path.of(last.toUri()))).isEqualTo("b\n");
    // files Kernel writes itself (checkpoints) must go through a temporary file and a rename
    assertThat(store.isPartialWriteVisible(last, conf)).isTrue();
  }
}
