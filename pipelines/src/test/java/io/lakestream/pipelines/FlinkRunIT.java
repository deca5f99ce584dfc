package io.lakestream.pipelines;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The application jar under {@code flink run}: Flink's own command-line front end (the class behind
 * {@code bin/flink}) submits {@code lakestream.jar} to a local executor, so the job runs in a user
 * code class loader from the jar alone, with Flink's classpath and no lakestream classes on it.
 */
class FlinkRunIT {
  @TempDir Path dir;

  private int flinkRun(Path conf, String... args) throws Exception {
    String classpath =
        Files.readString(Path.of("target/embedded-runtime.classpath")).trim()
            + File.pathSeparator
            + Files.readString(Path.of("target/embedded-provided.classpath")).trim();
    String flinkClasspath =
        Arrays.stream(classpath.split(File.pathSeparator))
            .filter(entry -> !new File(entry).getName().startsWith("lakestream-"))
            .collect(Collectors.joining(File.pathSeparator));
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(
        List.of(
            "--add-opens=java.base/java.util=ALL-UNNAMED",
            "--add-opens=java.base/java.lang=ALL-UNNAMED",
            "-cp",
            flinkClasspath,
            "org.apache.flink.client.cli.CliFrontend",
            "run",
            "-t",
            "local",
            ApplicationJar.path()));
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().put("FLINK_CONF_DIR", conf.toString());
    builder.redirectOutput(dir.resolve("flink-run.log").toFile());
    Process process = builder.start();
    assertThat(process.waitFor(3, TimeUnit.MINUTES)).as("flink run finished").isTrue();
    return process.exitValue();
  }

  private static long orders(Path out) throws Exception {
    return new io.lakestream.connectors.delta.DeltaTableReader(
            io.lakestream.connectors.delta.DeltaTable.forPath(
                out.resolve("orders").toUri().toString()))
        .count();
  }

  private static long lines(Path table) throws Exception {
    long count = 0;
    try (Stream<Path> files = Files.list(table)) {
      for (Path f : files.filter(p -> p.toString().endsWith(".jsonl")).toList()) {
        count += Files.readAllLines(f).size();
      }
    }
    return count;
  }

  @Test
  void theApplicationJarRunsUnderFlinkRunAndResumes() throws Exception {
    Path conf = Files.createDirectories(dir.resolve("conf"));
    Files.writeString(
        conf.resolve("config.yaml"),
        "rest.address: 127.0.0.1\njobmanager.rpc.address: 127.0.0.1\n",
        StandardCharsets.UTF_8);
    Path out = dir.resolve("out");

    int first = flinkRun(conf, "run", "demo", "--rows", "2000", "--output", out.toString());
    String log = Files.readString(dir.resolve("flink-run.log"));
    assertThat(first).as(log).isZero();
    assertThat(orders(out) + lines(out.resolve("orders_dead_letters"))).isEqualTo(2000);

    int second = flinkRun(conf, "run", "demo", "--rows", "3000", "--output", out.toString());
    assertThat(second).as(Files.readString(dir.resolve("flink-run.log"))).isZero();
    assertThat(orders(out) + lines(out.resolve("orders_dead_letters"))).isEqualTo(3000);
  }
}
