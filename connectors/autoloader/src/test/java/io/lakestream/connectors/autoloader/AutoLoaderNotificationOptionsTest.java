package io.lakestream.connectors.autoloader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.api.error.LakestreamException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Validation of the file notification and cleanSource options: errors name the option. */
class AutoLoaderNotificationOptionsTest {
  @TempDir Path dir;

  private AutoLoaderBuilder on(String path) {
    return AutoLoaderBuilder.forPath(path)
        .name("files")
        .option("cloudFiles.format", "json")
        .schema("id BIGINT");
  }

  private AutoLoaderBuilder s3() {
    return on("s3a://landing/events").option("cloudFiles.useNotifications", "true");
  }

  @Test
  void notificationModeNeedsAQueueAnS3PathAndARegion() {
    assertThatThrownBy(() -> s3().sanityCheck())
        .isInstanceOfSatisfying(
            LakestreamException.class, e -> assertThat(e.errorClass()).isEqualTo("MISSING_OPTION"))
        .hasMessageContaining("cloudFiles.region is needed: without cloudFiles.queueUrl");
    assertThatThrownBy(
            () ->
                s3().option("cloudFiles.queueUrl", "https://sqs.us-east-1.amazonaws.com/1/q")
                    .option("cloudFiles.resourceTag.team", "data")
                    .sanityCheck())
        .hasMessageContaining("cloudFiles.resourceTag.* tag the queue Auto Loader sets up");
    assertThatThrownBy(
            () ->
                on(dir.toString())
                    .option("cloudFiles.useNotifications", "true")
                    .option("cloudFiles.queueUrl", "http://127.0.0.1:1/000000000000/q")
                    .sanityCheck())
        .hasMessageContaining("the input path must be on S3")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("CONFLICTING_OPTIONS");
    assertThatThrownBy(
            () -> s3().option("cloudFiles.queueUrl", "http://127.0.0.1:1/0/q").sanityCheck())
        .hasMessageContaining("cloudFiles.region is needed");
    assertThatCode(
            () ->
                s3().option(
                        "cloudFiles.queueUrl",
                        "https://sqs.eu-west-1.amazonaws.com/123456789012/landing")
                    .sanityCheck())
        .doesNotThrowAnyException();
    assertThatThrownBy(() -> s3().option("cloudFiles.useNotifications", "maybe").sanityCheck())
        .hasMessageContaining("cloudFiles.useNotifications='maybe' is invalid");
  }

  @Test
  void credentialsGoTogetherAndAreNeverPrinted() {
    assertThatThrownBy(
            () ->
                s3().option("cloudFiles.queueUrl", "http://127.0.0.1:1/0/q")
                    .option("cloudFiles.region", "us-east-1")
                    .option("cloudFiles.awsSecretKey", "s3cr3t-value")
                    .sanityCheck())
        .hasMessageContaining("cloudFiles.awsAccessKey and cloudFiles.awsSecretKey go together")
        .hasMessageNotContaining("s3cr3t-value");
  }

  @Test
  void queueOptionsWithoutNotificationModeAreRefused() {
    assertThatThrownBy(
            () -> on(dir.toString()).option("cloudFiles.queueUrl", "http://x/0/q").sanityCheck())
        .hasMessageContaining("cloudFiles.queueUrl is only used in file notification mode");
  }

  @Test
  void snsTopicOnlyWhenAutoLoaderSetsUpTheQueue() {
    assertThatThrownBy(
            () ->
                s3().option("cloudFiles.queueUrl", "https://sqs.us-east-1.amazonaws.com/1/q")
                    .option("cloudFiles.useSns", "true")
                    .sanityCheck())
        .hasMessageContaining(
            "cloudFiles.useSns=true puts a topic between the bucket and the queue")
        .hasMessageContaining("remove cloudFiles.queueUrl")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("CONFLICTING_OPTIONS");
    assertThatThrownBy(
            () ->
                s3().option("cloudFiles.region", "us-east-1")
                    .option("cloudFiles.snsEndpoint", "http://127.0.0.1:1")
                    .sanityCheck())
        .hasMessageContaining("cloudFiles.snsEndpoint is only used with an SNS topic")
        .hasMessageContaining("set cloudFiles.useSns=true");
    assertThatCode(
            () ->
                s3().option("cloudFiles.region", "us-east-1")
                    .option("CLOUDFILES.USESNS", "true")
                    .option("cloudFiles.snsEndpoint", "http://127.0.0.1:1")
                    .sanityCheck())
        .doesNotThrowAnyException();
  }

  @Test
  void cleanSourceOptions() {
    String input = dir.resolve("in").toString();
    assertThatThrownBy(() -> on(input).option("cloudFiles.cleanSource", "ARCHIVE").sanityCheck())
        .hasMessageContaining("cloudFiles.cleanSource must be OFF, DELETE or MOVE");
    assertThatThrownBy(() -> on(input).option("cloudFiles.cleanSource", "MOVE").sanityCheck())
        .hasMessageContaining(
            "cloudFiles.cleanSource=MOVE needs cloudFiles.cleanSource.moveDestination");
    assertThatThrownBy(
            () ->
                on(input)
                    .option("cloudFiles.cleanSource", "MOVE")
                    .option("cloudFiles.cleanSource.moveDestination", input + "/archive")
                    .sanityCheck())
        .hasMessageContaining("cloudFiles.cleanSource.moveDestination")
        .hasMessageContaining("is inside the input path")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("CF_LOCATION_INSIDE_INPUT");
    assertThatThrownBy(
            () ->
                on("s3a://landing/in")
                    .option("cloudFiles.cleanSource", "MOVE")
                    .option("cloudFiles.cleanSource.moveDestination", "s3a://other/archive")
                    .sanityCheck())
        .hasMessageContaining("must be on the same file system (bucket)")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("INVALID_OPTION_VALUE");
    assertThatThrownBy(
            () ->
                on(input)
                    .option("cloudFiles.cleanSource.moveDestination", dir.resolve("a").toString())
                    .sanityCheck())
        .hasMessageContaining("only used with cloudFiles.cleanSource=MOVE");
    assertThatThrownBy(
            () ->
                on(input)
                    .option("cloudFiles.cleanSource", "delete")
                    .option("cloudFiles.cleanSource.retentionDuration", "-1 s")
                    .sanityCheck())
        .hasMessageContaining("cloudFiles.cleanSource.retentionDuration");
    assertThatCode(
            () ->
                on(input)
                    .option("cloudFiles.cleanSource", "MOVE")
                    .option(
                        "cloudFiles.cleanSource.moveDestination", dir.resolve("arch").toString())
                    .sanityCheck())
        .doesNotThrowAnyException();
  }
}
