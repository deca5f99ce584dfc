package io.lakestream.bench.autoloader;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.bench.BenchOptions;
import io.lakestream.bench.BenchResult;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The autoloader-discovery bench on 2,000 files (the build never runs the real size): both jobs
 * emit every file once (the bench checks count and id sum itself), and the S3 LIST requests the
 * counting proxy saw for each discovery pass are the ones the listing design implies: one for an
 * incremental listing of 100 new files, one per 1,000 keys for a full relisting, and at least one
 * per hour directory for FileSource; the running Auto Loader job lists about once per 1 s trigger
 * while no file arrives. With cloudFiles.maxFileAge the ledger holds the files of the last max age,
 * not every file read, and is empty once no new file arrived for a max age.
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
    // idle: one listing per 1 s trigger, also right after the backfill, when Flink runs the
    // checkpoints it queued meanwhile back to back (these listed once each: 23 in 10 s before)
    String[] idle =
        report
            .lines()
            .filter(l -> l.startsWith("| Auto Loader (one listing per"))
            .findFirst()
            .orElseThrow()
            .split("\\|");
    long idleLists = Long.parseLong(idle[2].trim());
    double idleSeconds = Double.parseDouble(idle[3].trim());
    assertThat(idleLists).isPositive().isLessThanOrEqualTo((long) (1.5 * idleSeconds));
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

    // the ledger with maxFileAge: 12 waves of 20 files; it levels off, then drains
    assertThat(report).contains("File ledger over a long discovery run");
    List<long[]> ledger =
        report
            .lines()
            .dropWhile(l -> !l.startsWith("| s | files ingested | ledger entries |"))
            .skip(2)
            .takeWhile(l -> l.startsWith("|"))
            .map(AutoLoaderDiscoveryBenchSmokeTest::ledgerRow)
            .toList();
    assertThat(ledger).hasSize(LedgerExpiryRun.WAVES + 1);
    long[] lastWave = ledger.get(LedgerExpiryRun.WAVES - 1);
    assertThat(lastWave[0]).isEqualTo(240);
    assertThat(lastWave[1]).isBetween(1L, 20L * (LedgerExpiryRun.MAX_AGE_SECONDS + 2));
    assertThat(lastWave[2]).isGreaterThanOrEqualTo(240 - lastWave[1]);
    assertThat(ledger.get(LedgerExpiryRun.WAVES)).containsExactly(240, 0, 240);

    // notification mode: 200 files from an SQS backlog, each once (the run checks), no listing
    String notified =
        report
            .lines()
            .dropWhile(l -> !l.startsWith("File notification mode"))
            .filter(l -> l.startsWith("| 200 |"))
            .findFirst()
            .orElseThrow();
    assertThat(notified.split("\\|")[6].trim()).isEqualTo("0");
  }

  /** Files ingested, ledger entries and entries evicted of a row of the ledger table. */
  private static long[] ledgerRow(String line) {
    String[] cells = line.split("\\|");
    return new long[] {
      Long.parseLong(cells[2].trim().replace(",", "")),
      Long.parseLong(cells[3].trim().replace(",", "")),
      Long.parseLong(cells[4].trim().replace(",", ""))
    };
  }
}
