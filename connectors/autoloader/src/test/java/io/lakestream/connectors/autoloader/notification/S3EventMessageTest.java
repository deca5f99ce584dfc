package io.lakestream.connectors.autoloader.notification;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import org.junit.jupiter.api.Test;

/** S3 event notification bodies as S3 (and SNS) deliver them to SQS. */
class S3EventMessageTest {

  static String event(String eventName, String bucket, String encodedKey, long size) {
    return "{\"Records\":[{\"eventVersion\":\"2.1\",\"eventSource\":\"aws:s3\","
        + "\"awsRegion\":\"us-east-1\",\"eventTime\":\"2026-11-29T10:15:30.123Z\","
        + "\"eventName\":\""
        + eventName
        + "\",\"s3\":{\"s3SchemaVersion\":\"1.0\",\"bucket\":{\"name\":\""
        + bucket
        + "\",\"arn\":\"arn:aws:s3:::"
        + bucket
        + "\"},\"object\":{\"key\":\""
        + encodedKey
        + "\",\"size\":"
        + size
        + ",\"eTag\":\"0123\",\"sequencer\":\"0A1B\"}}}]}";
  }

  @Test
  void objectCreatedWithAnUrlEncodedKey() {
    assertThat(S3EventMessage.parse(event("ObjectCreated:Put", "b", "in/date%3D2026/my+f.json", 7)))
        .containsExactly(
            new S3EventMessage.ObjectCreated(
                "b",
                "in/date=2026/my f.json",
                7,
                Instant.parse("2026-11-29T10:15:30.123Z").toEpochMilli()));
  }

  @Test
  void testEventAndOtherEventsAnnounceNoFile() {
    assertThat(
            S3EventMessage.parse(
                "{\"Service\":\"Amazon S3\",\"Event\":\"s3:TestEvent\","
                    + "\"Time\":\"2026-11-29T10:15:30.123Z\",\"Bucket\":\"b\"}"))
        .isEmpty();
    assertThat(S3EventMessage.parse(event("ObjectRemoved:Delete", "b", "in/x.json", 0))).isEmpty();
  }

  @Test
  void snsEnvelopeIsUnwrapped() {
    String inner = event("ObjectCreated:CompleteMultipartUpload", "b", "in/x.json", 3);
    String sns =
        "{\"Type\":\"Notification\",\"MessageId\":\"m\",\"Message\":"
            + com.fasterxml.jackson.databind.node.TextNode.valueOf(inner)
            + "}";
    assertThat(S3EventMessage.parse(sns))
        .extracting(S3EventMessage.ObjectCreated::key)
        .containsExactly("in/x.json");
  }

  @Test
  void otherBodiesAreRefused() {
    assertThatThrownBy(() -> S3EventMessage.parse("hello"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> S3EventMessage.parse("{\"foo\":1}"))
        .hasMessageContaining("no Records");
  }

  @Test
  void settingsNeverPrintTheSecret() {
    NotificationSettings settings =
        new NotificationSettings("http://q", "us-east-1", null, "AKIAEXAMPLE", "s3cr3t-value", 0);
    assertThat(settings.toString()).doesNotContain("s3cr3t-value").doesNotContain("AKIAEXAMPLE");
    assertThat(
            NotificationSettings.regionOf(
                "https://sqs.eu-west-1.amazonaws.com/123456789012/landing-events"))
        .isEqualTo("eu-west-1");
    assertThat(NotificationSettings.regionOf("http://127.0.0.1:9324/000000000000/q")).isNull();
  }
}
