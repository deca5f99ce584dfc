package io.lakestream.testkit.flink;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The cluster's lib/ split into Flink's own jars and the shaded Hadoop client. */
class FlinkLibTest {

  private static List<String> names(List<Path> jars) {
    return jars.stream().map(jar -> jar.getFileName().toString()).toList();
  }

  @Test
  void flinkJarsHoldFlinkAndLoggingButNoHadoopAndNoAwsSdk() {
    assertThat(names(FlinkLib.flinkJars()))
        .anyMatch(n -> n.startsWith("flink-runtime-1."))
        .anyMatch(n -> n.startsWith("flink-clients-"))
        .anyMatch(n -> n.startsWith("flink-statebackend-rocksdb-"))
        .anyMatch(n -> n.startsWith("log4j-core-"))
        .noneMatch(n -> n.startsWith("hadoop-"))
        .noneMatch(n -> n.startsWith("s3-") || n.startsWith("sdk-core-"))
        .noneMatch(n -> n.startsWith("commons-logging-"));
  }

  @Test
  void hadoopClientJarsAreTheShadedClientPairOnly() {
    assertThat(names(FlinkLib.hadoopClientJars()))
        .hasSize(2)
        .anyMatch(n -> n.matches("hadoop-client-api-3\\.[0-9.]+\\.jar"))
        .anyMatch(n -> n.matches("hadoop-client-runtime-3\\.[0-9.]+\\.jar"));
  }

  @Test
  void theClusterJarsAreBothPlusS3a() {
    List<Path> cluster = FlinkLib.clusterJars();
    assertThat(cluster).containsAll(FlinkLib.flinkJars()).containsAll(FlinkLib.hadoopClientJars());
    assertThat(names(cluster)).anyMatch(n -> n.startsWith("hadoop-aws-"));
  }

  @Test
  void classpathJoinsWithoutDuplicatesAndTheJvmOptionsOpenJavaBase() {
    String classpath = FlinkLib.classpath(FlinkLib.hadoopClientJars(), FlinkLib.clusterJars());
    assertThat(classpath.split(File.pathSeparator)).hasSize(FlinkLib.clusterJars().size());
    assertThat(FlinkLib.defaultJvmOptions())
        .contains("--add-opens=java.base/java.util=ALL-UNNAMED")
        .allMatch(o -> o.startsWith("--add-"));
  }
}
