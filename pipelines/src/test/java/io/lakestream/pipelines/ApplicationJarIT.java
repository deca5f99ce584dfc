package io.lakestream.pipelines;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.Test;

/**
 * The application jar is what users hand to {@code flink run}: it must bundle lakestream and its
 * connectors, and must not carry Flink's runtime, logging, or an unrelocated Jackson that would
 * clash with the cluster's classpath.
 */
class ApplicationJarIT {

  private static List<String> entries() throws IOException {
    File jar = new File(System.getProperty("lakestream.applicationJar", "target/lakestream.jar"));
    assertThat(jar).as("application jar (built by mvn package)").isFile();
    try (JarFile file = new JarFile(jar)) {
      List<String> names = new ArrayList<>();
      for (ZipEntry entry : Collections.list(file.entries())) {
        names.add(entry.getName());
      }
      assertThat(file.getManifest().getMainAttributes().getValue("Main-Class"))
          .isEqualTo("io.lakestream.pipelines.cli.LakestreamCli");
      return names;
    }
  }

  @Test
  void bundlesLakestreamAndConnectors() throws IOException {
    assertThat(entries())
        .contains(
            "io/lakestream/pipelines/cli/LakestreamCli.class",
            "io/lakestream/connectors/sink/EpochSink.class",
            "io/lakestream/state/StateBackendSettings.class",
            "io/lakestream/operators/parse/ParseWithDeadLetters.class",
            "picocli/CommandLine.class",
            "org/apache/flink/connector/datagen/source/DataGeneratorSource.class",
            // Auto Loader's file notification mode: the SQS client and its HTTP client
            "software/amazon/awssdk/services/sqs/SqsClient.class",
            "software/amazon/awssdk/http/urlconnection/UrlConnectionHttpClient.class",
            // kinesis-to-bronze and the spark-kinesis SQL table: the Kinesis client
            "software/amazon/awssdk/services/kinesis/KinesisClient.class",
            "io/lakestream/sql/connector/kinesis/KinesisTableFactory.class",
            // Auto Loader's orc format: ORC's hive-storage-api, relocated out of org.apache.hadoop
            "io/lakestream/shaded/org/apache/hadoop/hive/ql/exec/vector/VectorizedRowBatch.class");
  }

  @Test
  void containsNoFlinkRuntimeNoLoggingBackendAndOnlyRelocatedJacksonAndNetty() throws IOException {
    List<String> classes = entries().stream().filter(n -> n.endsWith(".class")).toList();
    assertThat(entries()).noneMatch(n -> n.endsWith(".txz"));
    assertThat(classes)
        .noneMatch(n -> n.startsWith("org/apache/flink/runtime/"))
        .noneMatch(n -> n.startsWith("org/apache/flink/streaming/api/"))
        .noneMatch(n -> n.startsWith("org/apache/flink/api/common/"))
        .noneMatch(n -> n.startsWith("org/apache/flink/configuration/"))
        .noneMatch(n -> n.startsWith("org/apache/flink/shaded/"))
        .noneMatch(n -> n.startsWith("org/rocksdb/"))
        .noneMatch(n -> n.startsWith("org/slf4j/"))
        .noneMatch(n -> n.startsWith("org/apache/logging/log4j/"))
        .noneMatch(n -> n.startsWith("org/apache/hadoop/"))
        .noneMatch(n -> n.startsWith("com/fasterxml/jackson/"))
        .noneMatch(n -> n.startsWith("io/netty/"))
        // the demo's embedded PostgreSQL (~80 MB of server binaries) is on bin/lakestream's
        // classpath only
        .noneMatch(n -> n.startsWith("io/zonky/"))
        .anyMatch(n -> n.startsWith("io/lakestream/shaded/com/fasterxml/jackson/databind/"))
        .anyMatch(n -> n.startsWith("io/lakestream/shaded/io/netty/handler/codec/http2/"));
  }
}
