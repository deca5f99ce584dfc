package io.lakestream.bench.e2;

import io.lakestream.bench.Measurement;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Runs one side of a bench in its own JVM, so its CPU time and peak memory are its own: starts
 * {@code java <options> -cp <classpath> <main> <args>}, waits for it, and parses the {@link
 * ChildReport} line it printed. The child's stderr goes to a log file; when the child fails (exit
 * code not 0 or no result line) the error names the side, the exit code and shows the log's tail.
 * In the JVM options, {@code {child}} stands for the main class's simple name (e.g. for one JFR
 * file per side: {@code -XX:StartFlightRecording=filename=/tmp/{child}.jfr,dumponexit=true}).
 */
public final class ChildJvm {
  /** Java 17 opens Flink and Spark need (the union of both lists; unknown ones are ignored). */
  private static final List<String> OPENS =
      List.of(
          "-XX:+IgnoreUnrecognizedVMOptions",
          "--add-exports=java.base/sun.net.util=ALL-UNNAMED",
          "--add-exports=java.rmi/sun.rmi.registry=ALL-UNNAMED",
          "--add-exports=java.security.jgss/sun.security.krb5=ALL-UNNAMED",
          "--add-opens=java.base/java.lang=ALL-UNNAMED",
          "--add-opens=java.base/java.lang.invoke=ALL-UNNAMED",
          "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
          "--add-opens=java.base/java.io=ALL-UNNAMED",
          "--add-opens=java.base/java.net=ALL-UNNAMED",
          "--add-opens=java.base/java.nio=ALL-UNNAMED",
          "--add-opens=java.base/java.text=ALL-UNNAMED",
          "--add-opens=java.base/java.time=ALL-UNNAMED",
          "--add-opens=java.base/java.util=ALL-UNNAMED",
          "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
          "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED",
          "--add-opens=java.base/java.util.concurrent.locks=ALL-UNNAMED",
          "--add-opens=java.base/jdk.internal.ref=ALL-UNNAMED",
          "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
          "--add-opens=java.base/sun.nio.cs=ALL-UNNAMED",
          "--add-opens=java.base/sun.security.action=ALL-UNNAMED",
          "--add-opens=java.base/sun.util.calendar=ALL-UNNAMED",
          "-Djdk.reflect.useDirectMethodHandle=false",
          "-Dio.netty.tryReflectionSetAccessible=true");

  private final String side;
  private final List<String> javaOptions;
  private final String classpath;
  private final String mainClass;
  private final Path log;

  public ChildJvm(
      String side, List<String> javaOptions, String classpath, String mainClass, Path log) {
    this.side = side;
    this.javaOptions = List.copyOf(javaOptions);
    this.classpath = classpath;
    this.mainClass = mainClass;
    this.log = log;
  }

  /**
   * Runs the child to its end and returns its measurement, with the child JVM's whole wall time
   * (start to exit) appended to the detail.
   *
   * @throws IllegalStateException if the child failed or printed no result
   */
  public Measurement run(List<String> args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    String child = mainClass.substring(mainClass.lastIndexOf('.') + 1);
    for (String option : javaOptions) {
      command.add(option.replace("{child}", child));
    }
    command.addAll(OPENS);
    command.add("-cp");
    command.add(classpath);
    command.add(mainClass);
    command.addAll(args);
    Files.createDirectories(log.getParent());
    ProcessBuilder builder = new ProcessBuilder(command).redirectError(log.toFile());
    builder.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
    long t0 = System.nanoTime();
    Process process = builder.start();
    String result = null;
    try (BufferedReader out =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = out.readLine(); line != null; line = out.readLine()) {
        if (line.startsWith(ChildReport.PREFIX)) {
          result = line;
        }
      }
    }
    int exit = process.waitFor();
    double jvmSeconds = (System.nanoTime() - t0) / 1e9;
    if (exit != 0 || result == null) {
      throw new IllegalStateException(
          String.format(
              Locale.ROOT,
              "%s side failed: child JVM %s exited with %d%s. Last lines of %s:%n%s",
              side,
              mainClass,
              exit,
              result == null ? " without a result line" : "",
              log,
              tail(log, 40)));
    }
    Measurement m = ChildReport.parse(side, result);
    return new Measurement(
        m.side(),
        m.rows(),
        m.nanos(),
        m.cpuNanos(),
        m.peakRssBytes(),
        m.peakHeapBytes(),
        m.detail() + String.format(Locale.ROOT, "; whole child JVM %.1f s", jvmSeconds));
  }

  /**
   * The children's JVM options: {@code BENCH_CHILD_JAVA_OPTS} (default {@code -Xmx2g}) and this
   * JVM's log4j configuration, so every child logs like the bench.
   */
  public static List<String> defaultJavaOptions() {
    List<String> options =
        new ArrayList<>(
            Arrays.asList(
                System.getenv()
                    .getOrDefault("BENCH_CHILD_JAVA_OPTS", "-Xmx2g")
                    .trim()
                    .split("\\s+")));
    String log4j = System.getProperty("log4j.configurationFile");
    if (log4j != null) {
      options.add("-Dlog4j.configurationFile=" + log4j);
    }
    return options;
  }

  private static String tail(Path file, int lines) {
    try {
      List<String> all = Files.readAllLines(file);
      return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    } catch (IOException e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }
}
