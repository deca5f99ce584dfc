package io.lakestream.bench.e2;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lakestream.pipelines.cli.LakestreamCli;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The {@code lakestream sql} side of {@code bin/bench e2-bronze-sql}, in its own JVM: hands the
 * arguments after {@code --} unchanged to the CLI's own entry point, {@link LakestreamCli#main}
 * (e.g. {@code sql -f e2_bronze.sql --trigger availableNow}), which runs the query embedded and
 * exits the JVM with its exit code. The clock runs from that call to the JVM's exit (a shutdown
 * hook), so it includes the CLI's parsing and the script's planning, as the other sides' clocks
 * include planning and the embedded cluster's start.
 *
 * <p>Arguments before {@code --} are {@code key=value}: {@code records} (the input records) and
 * {@code checkpoint} (the script's checkpoint location, a local directory). The hook reads the
 * query's newest progress file there ({@code progress/<epoch>}); unless its sources' end offsets
 * add up to {@code records} it halts the JVM with exit code 1 instead of printing the {@link
 * ChildReport} line. The tables' contents are checked by the bench after the JVM ended.
 */
public final class LakestreamSqlCliMain {
  private static final ObjectMapper JSON = new ObjectMapper();

  private LakestreamSqlCliMain() {}

  public static void main(String[] args) {
    int split = Arrays.asList(args).indexOf("--");
    if (split < 0) {
      throw new IllegalArgumentException("expected key=value ... -- <lakestream arguments>");
    }
    Map<String, String> a = ChildArgs.parse(Arrays.copyOfRange(args, 0, split));
    String[] cli = Arrays.copyOfRange(args, split + 1, args.length);
    long records = Long.parseLong(a.get("records"));
    Path checkpoint = Path.of(a.get("checkpoint"));
    long cpu0 = ChildReport.processCpuNanos();
    long t0 = System.nanoTime();
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(() -> report(records, checkpoint, t0, cpu0, cli), "bench-result"));
    LakestreamCli.main(cli);
  }

  private static void report(long records, Path checkpoint, long t0, long cpu0, String[] cli) {
    long nanos = System.nanoTime() - t0;
    long cpu = ChildReport.processCpuNanos() - cpu0;
    long peakRss = ChildReport.peakRssBytes();
    long peakHeap = ChildReport.peakHeapBytes();
    long[] progress = progress(checkpoint.resolve("progress"));
    if (progress[0] != records) {
      System.err.printf(
          Locale.ROOT,
          "lakestream sql side FAILED its check: the newest progress in %s has read %,d"
              + " offsets (expected %,d input records)%n",
          checkpoint,
          progress[0],
          records);
      Runtime.getRuntime().halt(1);
    }
    ChildReport.print(
        records,
        nanos,
        cpu,
        peakRss,
        peakHeap,
        String.format(
            Locale.ROOT,
            "lakestream %s (LakestreamCli.main), clock from main to JVM exit; newest epoch %d,"
                + " progress counts all input",
            String.join(" ", List.of(cli)).replaceAll("-f \\S*/", "-f "),
            progress[1]));
  }

  /**
   * The rows read, as the newest progress file counts them (the sum of its sources' end offsets:
   * the topic is read from its start), and that file's epoch. Older files are pruned after 100
   * epochs, so their {@code numInputRows} need not add up to the input.
   */
  private static long[] progress(Path dir) {
    try (Stream<Path> files = Files.list(dir)) {
      Path newest =
          files
              .filter(f -> f.getFileName().toString().matches("\\d+"))
              .max(Comparator.comparingLong(f -> Long.parseLong(f.getFileName().toString())))
              .orElseThrow(() -> new IOException("no progress files"));
      JsonNode epoch = JSON.readTree(newest.toFile());
      long rows = 0;
      for (JsonNode source : epoch.path("sources")) {
        for (JsonNode offset : source.path("endOffset")) {
          rows += offset.asLong();
        }
      }
      return new long[] {rows, epoch.path("batchId").asLong()};
    } catch (IOException e) {
      System.err.println("cannot read the progress in " + dir + ": " + e);
      return new long[] {-1, 0};
    }
  }
}
