package io.lakestream.bench.e2;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lakestream.pipelines.cli.LakestreamCli;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
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
 * query's progress files there ({@code progress/<epoch>}); unless their input rows add up to {@code
 * records} it halts the JVM with exit code 1 instead of printing the {@link ChildReport} line. The
 * tables' contents are checked by the bench after the JVM ended.
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
          "lakestream sql side FAILED its check: the progress in %s counts %,d input rows"
              + " (expected %,d)%n",
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
            "lakestream %s (LakestreamCli.main), clock from main to JVM exit; %d epoch(s) with"
                + " input",
            String.join(" ", List.of(cli)).replaceAll("-f \\S*/", "-f "),
            progress[1]));
  }

  /** The input rows of all epochs' progress files, and the epochs with input. */
  private static long[] progress(Path dir) {
    long rows = 0;
    long epochs = 0;
    try (Stream<Path> files = Files.list(dir)) {
      for (Path file : files.filter(f -> f.getFileName().toString().matches("\\d+")).toList()) {
        JsonNode epoch = JSON.readTree(file.toFile());
        long n = epoch.path("numInputRows").asLong();
        rows += n;
        epochs += n > 0 ? 1 : 0;
      }
    } catch (IOException e) {
      System.err.println("cannot read the progress in " + dir + ": " + e);
      return new long[] {-1, 0};
    }
    return new long[] {rows, epochs};
  }
}
