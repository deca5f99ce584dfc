package io.lakestream.pipelines.msf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.api.error.LakestreamException;
import io.lakestream.runtime.ManagedService;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The MSF entry point's side of the property groups: how a file becomes the arguments of {@code
 * lakestream run}, which groups and keys it refuses and how it says so, and that the CLI checks the
 * translated arguments as it checks typed ones. Nothing here starts Flink.
 */
class MsfApplicationTest {
  @TempDir Path dir;

  @AfterEach
  void switchOff() {
    System.clearProperty(ManagedService.SWITCH_PROPERTY);
  }

  private MsfProperties properties(String json) throws IOException {
    Path file = dir.resolve("application_properties.json");
    Files.writeString(file, json);
    return MsfProperties.read(file);
  }

  private static String errorClass(Throwable e) {
    return ((LakestreamException) e).errorClass();
  }

  private static Configuration service() {
    Configuration conf = new Configuration();
    conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofSeconds(2));
    conf.set(CoreOptions.DEFAULT_PARALLELISM, 3);
    return conf;
  }

  @Test
  void theGroupsBecomeTheArgumentsOfRun() throws IOException {
    MsfProperties props =
        properties(
            """
            [{"PropertyGroupId": "lakestream",
              "PropertyMap": {"pipeline": "bronze", "output": "s3a://lake/lakehouse",
                              "checkpointLocation": "s3a://lake/_chk/bronze", "parallelism": 4,
                              "trigger": "processingTime=2s", "query-name": "orders_bronze"}},
             {"PropertyGroupId": "source",
              "PropertyMap": {"kafka.bootstrap.servers": "b-1:9098",
                              "maxOffsetsPerTrigger": "50000"}}]
            """);

    assertThat(MsfApplication.arguments(props, service()))
        .containsExactly(
            "run",
            "bronze",
            "--output",
            "s3a://lake/lakehouse",
            "--checkpoint",
            "s3a://lake/_chk/bronze",
            "--query-name",
            "orders_bronze",
            "--output-mode",
            "append",
            "--trigger",
            "processingTime=2s",
            "--parallelism",
            "4",
            "--rows",
            "0",
            "--rows-per-second",
            "2000",
            "--max-rows-per-trigger",
            "0",
            "-o",
            "kafka.bootstrap.servers=b-1:9098",
            "-o",
            "maxOffsetsPerTrigger=50000");
  }

  @Test
  void withoutTriggerOrParallelismTheServicesApply() throws IOException {
    MsfProperties props =
        properties(
            "[{\"PropertyGroupId\": \"lakestream\", \"PropertyMap\": {\"pipeline\": \"demo\","
                + " \"output\": \"s3a://lake/demo\"}}]");

    List<String> args = MsfApplication.arguments(props, service());
    assertThat(String.join(" ", args))
        .contains("--trigger processingTime=2000ms")
        .contains("--parallelism 3");
    assertThat(String.join(" ", MsfApplication.arguments(props, new Configuration())))
        .as("MSF's default CheckpointInterval; the CLI's parallelism")
        .contains("--trigger processingTime=60000ms")
        .doesNotContain("--parallelism");
  }

  @Test
  void anUnknownKeyIsRefusedListingTheValidOnes() throws IOException {
    MsfProperties props =
        properties(
            "[{\"PropertyGroupId\": \"lakestream\", \"PropertyMap\": {\"pipeline\": \"demo\","
                + " \"output\": \"/x\", \"trigerr\": \"processingTime=1m\"}}]");

    assertThatThrownBy(() -> MsfApplication.arguments(props, service()))
        .hasMessageContaining("Unknown MSF property group 'lakestream' option 'trigerr'")
        .hasMessageContaining("did you mean 'trigger'?")
        .hasMessageContaining("Valid options: [")
        .hasMessageContaining("rows-per-second")
        .extracting(MsfApplicationTest::errorClass)
        .isEqualTo("UNKNOWN_OPTION");
  }

  @Test
  void anUnknownGroupIsRefusedListingTheValidOnesAndTheServicesAreIgnored() throws IOException {
    MsfProperties props =
        properties(
            """
            [{"PropertyGroupId": "lakestream", "PropertyMap": {"pipeline": "demo", "output": "/x"}},
             {"PropertyGroupId": "kinesis.analytics.flink.run.options", "PropertyMap": {}},
             {"PropertyGroupId": "Source", "PropertyMap": {"subscribe": "orders"}}]
            """);

    assertThatThrownBy(() -> MsfApplication.arguments(props, service()))
        .hasMessageContaining("Unknown property groups [Source]")
        .hasMessageContaining("Valid groups: lakestream")
        .hasMessageContaining("and source (the pipeline's source options")
        .extracting(MsfApplicationTest::errorClass)
        .isEqualTo("MSF_INVALID_PROPERTIES");
  }

  @Test
  void whatTheServiceOwnsIsNoKey() throws IOException {
    MsfProperties props =
        properties(
            "[{\"PropertyGroupId\": \"lakestream\", \"PropertyMap\": {\"pipeline\": \"demo\","
                + " \"output\": \"/x\", \"restore-from\": \"s3://b/savepoint-1\"}}]");

    assertThatThrownBy(() -> MsfApplication.arguments(props, service()))
        .hasMessageContaining("cannot set restore-from")
        .hasMessageContaining("RESTORE_FROM_CUSTOM_SNAPSHOT")
        .extracting(MsfApplicationTest::errorClass)
        .isEqualTo("MSF_INVALID_PROPERTIES");
  }

  @Test
  void theQueryGroupAndItsPipelineAndOutputAreRequired() throws IOException {
    assertThatThrownBy(() -> MsfApplication.arguments(properties("[]"), service()))
        .hasMessageContaining("has no property group 'lakestream'")
        .extracting(MsfApplicationTest::errorClass)
        .isEqualTo("MSF_INVALID_PROPERTIES");
    MsfProperties noOutput =
        properties(
            "[{\"PropertyGroupId\": \"lakestream\", \"PropertyMap\": {\"pipeline\": \"demo\"}}]");
    assertThatThrownBy(() -> MsfApplication.arguments(noOutput, service()))
        .hasMessageContaining("option output is required")
        .extracting(MsfApplicationTest::errorClass)
        .isEqualTo("MISSING_OPTION");
  }

  @Test
  void aFileThatIsNotPropertyGroupsIsRefusedNamingIt() throws IOException {
    assertThatThrownBy(() -> properties("{\"lakestream\": {}}"))
        .hasMessageContaining("must hold a JSON array of property groups");
    assertThatThrownBy(() -> properties("[{\"PropertyMap\": {}}]"))
        .hasMessageContaining("without PropertyGroupId");
    assertThatThrownBy(
            () ->
                properties(
                    "[{\"PropertyGroupId\": \"source\"}, {\"PropertyGroupId\": \"source\"}]"))
        .hasMessageContaining("has property group 'source' twice");
    assertThatThrownBy(
            () -> properties("[{\"PropertyGroupId\": \"source\", \"PropertyMap\": {\"a\": [1]}}]"))
        .hasMessageContaining("property source.a must be text");
    assertThatThrownBy(() -> MsfProperties.read(dir.resolve("missing.json")))
        .hasMessageContaining("does not exist")
        .extracting(MsfApplicationTest::errorClass)
        .isEqualTo("MSF_INVALID_PROPERTIES");
  }

  @Test
  void theCliChecksTheTranslatedArgumentsAndTheQueryRefusesWhatTheServiceDecides()
      throws IOException {
    PrintStream oldErr = System.err;
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    try {
      properties(
          "[{\"PropertyGroupId\": \"lakestream\", \"PropertyMap\": {\"pipeline\": \"demo\","
              + " \"output\": \""
              + dir.resolve("lake")
              + "\", \"trigger\": \"availableNow\"}}]");
      assertThat(MsfApplication.run(dir.resolve("application_properties.json"))).isEqualTo(2);
      assertThat(err.toString(StandardCharsets.UTF_8))
          .contains("QUERY_MANAGED_SERVICE_CONFLICT")
          .contains("the service owns the job's life cycle");
      assertThat(dir.resolve("lake")).as("refused before anything was written").doesNotExist();

      err.reset();
      properties(
          "[{\"PropertyGroupId\": \"lakestream\", \"PropertyMap\": {\"pipeline\": \"nope\","
              + " \"output\": \"/x\"}}]");
      assertThat(MsfApplication.run(dir.resolve("application_properties.json"))).isEqualTo(2);
      assertThat(err.toString(StandardCharsets.UTF_8)).contains("unknown pipeline 'nope'");
    } finally {
      System.setErr(oldErr);
    }
  }

  @Test
  void theDeployPageListsEveryKeyOfTheQueryGroup() throws IOException {
    Path root = Path.of("").toAbsolutePath();
    while (!Files.isDirectory(root.resolve("docs/deploy"))) {
      root = root.getParent();
      assertThat(root).as("checkout root with docs/deploy").isNotNull();
    }
    String page = Files.readString(root.resolve("docs/deploy/msf.md"));
    for (io.lakestream.connectors.options.Option<?> option : MsfQueryOptions.ALL) {
      assertThat(page)
          .as("docs/deploy/msf.md lists `%s`", option.key())
          .contains("| `" + option.key() + "`");
    }
  }

  @Test
  void theEntryPointTakesNoArgumentsOrAPropertiesFile() {
    assertThat(MsfApplication.propertiesFile(new String[] {"--properties", "/p.json"}))
        .isEqualTo(Path.of("/p.json"));
    assertThat(MsfApplication.propertiesFile(new String[0]))
        .isEqualTo(ManagedService.propertiesFile());
    assertThatThrownBy(() -> MsfApplication.propertiesFile(new String[] {"run", "demo"}))
        .hasMessageContaining("takes no arguments");
  }
}
