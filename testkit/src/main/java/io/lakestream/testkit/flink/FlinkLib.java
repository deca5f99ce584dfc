package io.lakestream.testkit.flink;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The jars of the testkit's Flink {@code lib/} (module lakestream-flink-cluster-runtime resolves
 * them), split the way a cluster's class path is put together, for tests that start a JVM on a
 * chosen class path (for example Flink's own jars and EMR's Hadoop client, without lakestream's
 * build output):
 *
 * <ul>
 *   <li>{@link #flinkJars()}: Flink's own jars, what a Flink distribution's {@code lib/} holds
 *       (runtime, clients, DataStream API, state backends, connector-files, log4j); no Hadoop, no
 *       AWS SDK;
 *   <li>{@link #hadoopClientJars()}: {@code hadoop-client-api} and {@code hadoop-client-runtime}
 *       (the shaded Hadoop client, as EMR ships it in {@code /usr/lib/hadoop}), nothing else;
 *   <li>{@link #clusterJars()}: what {@link FlinkCluster} runs with, the above plus {@code
 *       hadoop-aws} and the AWS SDK modules S3A uses.
 * </ul>
 */
public final class FlinkLib {

  private FlinkLib() {}

  /**
   * Flink's own jars, without Hadoop or the AWS SDK.
   *
   * @throws IllegalStateException if lakestream-flink-cluster-runtime's resources are missing or
   *     name jars that do not exist (rebuild it on this machine)
   */
  public static List<Path> flinkJars() {
    return jars("flink-lib.classpath");
  }

  /**
   * {@code hadoop-client-api} and {@code hadoop-client-runtime} of the pom's {@code
   * hadoop.version}.
   *
   * @throws IllegalStateException as {@link #flinkJars()}
   */
  public static List<Path> hadoopClientJars() {
    return jars("hadoop-client.classpath");
  }

  /**
   * {@link FlinkCluster}'s {@code lib/}: Flink, the Hadoop client, hadoop-aws and the AWS SDK.
   *
   * @throws IllegalStateException as {@link #flinkJars()}
   */
  public static List<Path> clusterJars() {
    return jars("lib.classpath");
  }

  /**
   * Makes {@code root} a Flink plugins directory holding the plugins a cluster of the tests has
   * (flink-s3-fs-hadoop, flink-metrics-prometheus), for the {@code FLINK_PLUGINS_DIR} of a process
   * that runs Flink embedded.
   *
   * @return {@code root}
   */
  public static Path pluginsDirectory(Path root) throws java.io.IOException {
    FlinkHome.linkPlugins(root);
    return root;
  }

  /**
   * The JVM options Flink's scripts start every Flink JVM with ({@code env.java.default-opts.all}
   * of the repository's {@code flink-conf/config.yaml}: the {@code --add-opens} and {@code
   * --add-exports} Flink needs on Java 17).
   */
  public static List<String> defaultJvmOptions() {
    String key = "env.java.default-opts.all:";
    for (String line : FlinkHome.resource("config.yaml").split("\n")) {
      if (line.startsWith(key)) {
        String value = line.substring(key.length()).trim();
        if (value.length() >= 2 && (value.startsWith("'") || value.startsWith("\""))) {
          value = value.substring(1, value.length() - 1);
        }
        return value.isEmpty() ? List.of() : List.of(value.split("\\s+"));
      }
    }
    return List.of();
  }

  /** {@code jars} joined with the platform's path separator, for {@code -classpath}. */
  @SafeVarargs
  public static String classpath(List<Path>... jars) {
    Set<String> entries = new LinkedHashSet<>();
    for (List<Path> list : jars) {
      list.forEach(jar -> entries.add(jar.toAbsolutePath().toString()));
    }
    return entries.stream().collect(Collectors.joining(File.pathSeparator));
  }

  private static List<Path> jars(String resource) {
    List<Path> jars = new ArrayList<>();
    for (String entry : FlinkHome.resource(resource).trim().split(File.pathSeparator)) {
      if (entry.isBlank()) {
        continue;
      }
      Path jar = Path.of(entry.trim());
      FlinkHome.requireFile(jar, "jar of " + resource);
      jars.add(jar);
    }
    return List.copyOf(jars);
  }
}
