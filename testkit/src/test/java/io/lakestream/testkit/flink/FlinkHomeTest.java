package io.lakestream.testkit.flink;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The assembled Flink home: lib/, plugins/ and the repository's config.yaml with overrides. */
class FlinkHomeTest {
  @TempDir Path dir;

  @Test
  void overridesReplaceTheRepositoryKeysAndTheRestOfItStays() throws Exception {
    FlinkHome home =
        FlinkHome.create(
            dir,
            Map.of(
                "taskmanager.numberOfTaskSlots", "1",
                "s3.endpoint", "http://127.0.0.1:9000",
                "env.java.opts.all", "-Dit's=quoted"));

    String yaml = Files.readString(home.conf().resolve("config.yaml"));
    assertThat(yaml.lines().filter(l -> l.startsWith("taskmanager.numberOfTaskSlots:"))).hasSize(1);
    Configuration conf = home.configuration();
    assertThat(conf.getString("taskmanager.numberOfTaskSlots", null)).isEqualTo("1");
    assertThat(conf.getString("s3.endpoint", null)).isEqualTo("http://127.0.0.1:9000");
    assertThat(conf.getString("state.backend.type", null)).isEqualTo("rocksdb");
    assertThat(home.jvmOptions(CoreOptions.FLINK_TM_JVM_OPTIONS))
        .contains("--add-opens=java.base/java.util=ALL-UNNAMED")
        .endsWith("-Dit's=quoted");
  }

  @Test
  void hadoopSettingsGoToACoreSiteOnTheClassPathAsFlinksScriptsPutHadoopConfDir() throws Exception {
    FlinkHome home =
        FlinkHome.create(dir, Map.of(), Map.of("fs.s3a.endpoint", "http://127.0.0.1:9000/?a&b"));

    Path hadoopConf = home.hadoopConf().orElseThrow();
    assertThat(home.classpath()).isEqualTo(home.lib().toAbsolutePath() + "/*:" + hadoopConf);
    org.w3c.dom.Document xml =
        javax.xml.parsers.DocumentBuilderFactory.newInstance()
            .newDocumentBuilder()
            .parse(hadoopConf.resolve("core-site.xml").toFile());
    assertThat(xml.getElementsByTagName("name").item(0).getTextContent())
        .isEqualTo("fs.s3a.endpoint");
    assertThat(xml.getElementsByTagName("value").item(0).getTextContent())
        .isEqualTo("http://127.0.0.1:9000/?a&b");
    Map<String, String> env = new java.util.HashMap<>(Map.of("HADOOP_CONF_DIR", "/elsewhere"));
    FlinkProcess.environment(env, home);
    assertThat(env).containsEntry("HADOOP_CONF_DIR", hadoopConf.toString());

    FlinkHome without = FlinkHome.create(dir, Map.of());
    assertThat(without.hadoopConf()).as("a reused directory loses its old settings").isEmpty();
    assertThat(without.classpath()).isEqualTo(home.lib().toAbsolutePath() + "/*");
  }

  @Test
  void libHoldsFlinkHadoopAndLoggingAndPluginsHoldTheirOwnJars() throws Exception {
    FlinkHome home = FlinkHome.create(dir, Map.of());

    assertThat(home.lib().toFile().list())
        .anyMatch(n -> n.startsWith("flink-runtime-1."))
        .anyMatch(n -> n.startsWith("flink-clients-"))
        .anyMatch(n -> n.startsWith("flink-statebackend-rocksdb-"))
        .anyMatch(n -> n.startsWith("flink-dstl-dfs-"))
        .anyMatch(n -> n.startsWith("hadoop-client-runtime-"))
        .anyMatch(n -> n.startsWith("hadoop-aws-"))
        .anyMatch(n -> n.startsWith("log4j-core-"))
        .noneMatch(n -> n.startsWith("flink-s3-fs-hadoop"));
    assertThat(home.plugins().resolve("s3-fs-hadoop").toFile().list())
        .singleElement()
        .satisfies(n -> assertThat(n).startsWith("flink-s3-fs-hadoop-"));
    assertThat(home.plugins().resolve("metrics-prometheus").toFile().list()).hasSize(1);
  }
}
