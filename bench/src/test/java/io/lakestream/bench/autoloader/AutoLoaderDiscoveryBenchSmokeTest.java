package io.lakestream.bench.autoloader;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.bench.BenchOptions;
import io.lakestream.bench.BenchResult;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The autoloader-discovery bench on 2,000 files (the build never runs the real size): both jobs
 * emit every file once (the bench checks count and id sum itself), and the S3 LIST requests the
 * counting proxy saw for each discovery pass are the ones the listing design implies: one for an
 * incremental listing of 100 new files, one per 1,000 keys for a full relisting, and at least one
 * per hour directory for FileSource.
 */
class AutoLoaderDiscoveryBenchSmokeTest {
  private static final long FILES = 2_000;

  @TempDir Path dir;

  @Test
  void listingCallsAreCountedAndEveryFileArrivesOnce() throws Exception {
    BenchOptions options = new BenchOptions(FILES, 0, 2, Duration.ofSeconds(1), dir, false);

    BenchResult result = new AutoLoaderDiscoveryBench().run(options);

    assertThat(AutoLoaderDiscoveryBench.newFiles(FILES)).isEqualTo(100);
    assertThat(result.ours().rows()).isEqualTo(FILES + 100);
    assertThat(result.peer().rows()).isEqualTo(FILES);
    String report = result.toMarkdown();
    System.out.println(report);
    // files found | S3 LIST | S3 HEAD | lister's own count
    assertThat(report)
        .contains(
            "| (a) lakestream incremental, 100 new files after the cursor | 100 | 1 | 0 | 1 |")
        .contains("| (a) lakestream incremental, nothing new | 0 | 1 | 0 | 1 |")
        .contains("| (b) lakestream full relisting (start-after \"\") | 2,200 | 3 | 0 | 3 |")
        .contains("listing ratio (full relisting / incremental, LIST calls for the trigger that")
        .contains(": 3.0");
    String flinkRow =
        report
            .lines()
            .filter(l -> l.startsWith("| (c) Flink FileSource"))
            .findFirst()
            .orElseThrow();
    String[] cells = flinkRow.split("\\|");
    assertThat(cells[2].trim()).isEqualTo("2,200");
    // 24 hour directories of the first 2,000 files, one of the new ones, days and the root
    assertThat(Long.parseLong(cells[3].trim().replace(",", ""))).isGreaterThanOrEqualTo(27);
  }
}
