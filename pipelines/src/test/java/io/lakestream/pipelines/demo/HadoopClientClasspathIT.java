package io.lakestream.pipelines.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.testkit.OrphanReaper;
import io.lakestream.testkit.delta.DeltaLogTxns;
import io.lakestream.testkit.flink.FlinkLib;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The application jar on an EMR-like class path: Flink's own {@code lib/} jars, the shaded Hadoop
 * client EMR ships in {@code /usr/lib/hadoop} ({@code hadoop-client-api} and {@code
 * hadoop-client-runtime} of the pom's {@code hadoop.version}) and {@code lakestream.jar}, in a JVM
 * of its own with nothing of the build's output on it. The jar holds no Hadoop and no Flink
 * runtime, so it cannot clash with the cluster's: Delta Kernel takes Hadoop from the class path.
 * The same run without the two Hadoop jars fails on a missing Hadoop class, so they are what makes
 * the first one work.
 */
class HadoopClientClasspathIT {
  private static final long ROWS = 2_000;
  private static final String MAIN = "io.lakestream.pipelines.cli.LakestreamCli";

  @TempDir Path dir;

  private record Run(int exitCode, String output) {}

  private static Path applicationJar() {
    Path jar = Path.of(System.getProperty("lakestream.applicationJar", "target/lakestream.jar"));
    assertThat(jar).as("application jar (built by mvn package)").isRegularFile();
    return jar.toAbsolutePath();
  }

  /**
   * {@code LakestreamCli run demo --trigger availableNow} in a JVM on exactly {@code classpath}.
   */
  private Run runDemo(String name, List<Path> classpath, Path output) throws Exception {
    assertThat(classpath)
        .as("only the application jar, Flink's lib/ and the Hadoop client")
        .noneMatch(p -> p.toString().contains("target" + File.separator + "classes"))
        .noneMatch(p -> p.getFileName().toString().startsWith("lakestream-"));
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(FlinkLib.defaultJvmOptions());
    command.addAll(List.of("-Xmx512m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"));
    command.addAll(List.of("-classpath", FlinkLib.classpath(classpath), MAIN));
    command.addAll(
        List.of(
            "run",
            "demo",
            "--trigger",
            "availableNow",
            "--rows",
            Long.toString(ROWS),
            "--output",
            output.toString()));
    Path log = dir.resolve(name + ".out");
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    // Nothing from the environment either: no Flink configuration directory, no Hadoop class path.
    builder.environment().keySet().removeIf(k -> k.startsWith("FLINK_") || k.startsWith("HADOOP_"));
    builder.environment().remove("CLASSPATH");
    Process process = builder.start();
    try (OrphanReaper reaper = OrphanReaper.watch(process.pid(), dir.resolve(name))) {
      if (!process.waitFor(2, TimeUnit.MINUTES)) {
        process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        throw new AssertionError(
            name + " did not exit within 2 minutes:\n" + Files.readString(log));
      }
    }
    return new Run(process.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
  }

  @Test
  void theJarCarriesNeitherHadoopNorFlinksRuntime() throws IOException {
    List<String> classes = new ArrayList<>();
    try (JarFile jar = new JarFile(applicationJar().toFile())) {
      for (ZipEntry entry : Collections.list(jar.entries())) {
        if (entry.getName().endsWith(".class")) {
          classes.add(entry.getName());
        }
      }
    }
    assertThat(classes)
        .isNotEmpty()
        .noneMatch(n -> n.startsWith("org/apache/hadoop/"))
        .noneMatch(n -> n.startsWith("org/apache/flink/runtime/"));
  }

  @Test
  void theDemoRunsOnFlinkLibAndTheHadoopClientAloneAndFailsWithoutIt() throws Exception {
    List<Path> flink = FlinkLib.flinkJars();
    List<Path> hadoop = FlinkLib.hadoopClientJars();
    assertThat(flink).noneMatch(p -> p.getFileName().toString().startsWith("hadoop-"));
    DemoOrdersModel model = DemoOrdersModel.of(ROWS, 1_000);

    long t0 = System.nanoTime();
    Path out = dir.resolve("with-hadoop");
    List<Path> classpath = new ArrayList<>(List.of(applicationJar()));
    classpath.addAll(flink);
    classpath.addAll(hadoop);
    Run run = runDemo("with-hadoop", classpath, out);
    long withHadoopMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);

    assertThat(run.exitCode()).as(run.output()).isZero();
    assertThat(run.output()).contains("demo epoch 1:");
    DeltaLogTxns log = DeltaLogTxns.read(out.resolve("orders")).assertEachEpochOnce();
    assertThat(log.commits()).as("commits in orders/_delta_log").hasSizeGreaterThan(1);
    long orders =
        new DeltaTableReader(DeltaTable.forPath(out.resolve("orders").toUri().toString())).count();
    assertThat(orders).isEqualTo(model.orders());
    assertThat(lines(out.resolve("orders_dead_letters"))).isEqualTo(model.deadLetters());

    long t1 = System.nanoTime();
    Path bare = dir.resolve("without-hadoop");
    List<Path> withoutHadoop = new ArrayList<>(List.of(applicationJar()));
    withoutHadoop.addAll(flink);
    Run failed = runDemo("without-hadoop", withoutHadoop, bare);
    long withoutHadoopMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t1);

    assertThat(failed.exitCode()).as(failed.output()).isNotZero();
    assertThat(failed.output())
        .as("the missing Hadoop client is named")
        .containsPattern("NoClassDefFoundError: org/apache/hadoop/\\S+")
        .contains("ClassNotFoundException: org.apache.hadoop.");
    assertThat(bare.resolve("orders").resolve("_delta_log")).doesNotExist();
    System.out.printf(
        "HadoopClientClasspathIT: with the Hadoop client %d ms (%d orders, %d dead letters),"
            + " without it %d ms (exit %d)%n",
        withHadoopMillis, orders, model.deadLetters(), withoutHadoopMillis, failed.exitCode());
  }

  private static long lines(Path table) throws IOException {
    long count = 0;
    try (Stream<Path> files = Files.list(table)) {
      for (Path f : files.filter(p -> p.toString().endsWith(".jsonl")).toList()) {
        count += Files.readAllLines(f).size();
      }
    }
    return count;
  }
}
