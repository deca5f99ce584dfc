package io.lakestream.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every bench id through {@code ./bin/bench}'s entry point: {@link BenchMain} in a child JVM on
 * bin/bench's classpath ({@code target/classes} + {@code target/bench.classpath}, the runtime scope
 * written before the tests, not the tests' classpath), with {@code --check}: each id is known and
 * starts its first services (PostgreSQL, Kafka, a MiniCluster, the S3 server) and loads its sides'
 * classes; the Spark-side benches without the {@code spark-bench} build say how to build it. The
 * benches' own smoke tests run each at a tiny size; this one catches a bench that cannot start from
 * the command line (a runtime classpath conflict, a missing class) in seconds.
 */
class BenchEntryPointTest {
  private static final Set<String> SPARK_SIDE = Set.of("e2-bronze", "merge", "merge-dv");

  @TempDir Path dir;

  @Test
  void everyBenchIdStartsThroughBinBenchsEntryPoint() throws Exception {
    Path target = Path.of("target").toAbsolutePath();
    Path root = target.getParent().getParent();
    String script = Files.readString(root.resolve("bin/bench"));
    assertThat(script) // what this test runs is what bin/bench runs
        .contains("cp_file=\"$root/bench/target/bench.classpath\"")
        .contains("-cp \"$root/bench/target/classes:$(cat \"$cp_file\")\"")
        .contains(BenchMain.class.getName() + " \"$@\"");

    String output = bench(root, target, "--check");

    List<String> ids = BenchRegistry.standard().all().stream().map(Bench::id).toList();
    assertThat(ids).hasSizeGreaterThanOrEqualTo(11).containsAll(SPARK_SIDE);
    for (String id : ids) {
      if (SPARK_SIDE.contains(id)) {
        assertThat(output)
            .as("%s:%n%s", id, output)
            .containsAnyOf(
                id + ": ok", id + ": needs the Spark peer: The Spark side is not built (" + root);
        assertThat(output).doesNotContain(id + ": FAILED");
      } else {
        assertThat(output).as("%s:%n%s", id, output).contains(id + ": ok (");
      }
    }
    assertThat(bench(root, target, "--check", "no-such-bench"))
        .contains("Unknown bench 'no-such-bench'", "lakebase-upsert");
  }

  /** Runs BenchMain as bin/bench does; returns its output, asserting the exit status. */
  private String bench(Path root, Path target, String... args) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx1g");
    command.add("-Dbench.root=" + root);
    ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
        .filter(a -> a.startsWith("--add-opens") || a.startsWith("--add-exports"))
        .forEach(command::add);
    command.add("-cp");
    command.add(
        target.resolve("classes")
            + ":"
            + Files.readString(target.resolve("bench.classpath")).trim());
    command.add(BenchMain.class.getName());
    command.addAll(List.of(args));
    Path log = dir.resolve("bench-" + args.length + ".log");
    Process bench =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    boolean ended = bench.waitFor(3, TimeUnit.MINUTES);
    if (!ended) {
      bench.destroyForcibly();
    }
    String output = Files.readString(log);
    assertThat(ended).as("ended:%n%s", output).isTrue();
    assertThat(bench.exitValue())
        .as("exit status:%n%s", output)
        .isEqualTo(args.length == 1 ? 0 : 2);
    return output;
  }
}
