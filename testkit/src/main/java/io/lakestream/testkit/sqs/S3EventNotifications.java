package io.lakestream.testkit.sqs;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * The message bodies Amazon S3 sends to an SQS queue or SNS topic, as its event notification
 * documentation shows them, for tests and benches that stand in for S3's notifications.
 */
public final class S3EventNotifications {
  private S3EventNotifications() {}

  /**
   * The {@code ObjectCreated:Put} event of {@code key} (the full object key; URL-encoded in the
   * body as S3 encodes it, slashes kept), stamped now: Auto Loader takes the event time as the
   * file's.
   */
  public static String objectCreated(String bucket, String key, long size) {
    String encoded = URLEncoder.encode(key, StandardCharsets.UTF_8).replace("%2F", "/");
    return "{\"Records\":[{\"eventVersion\":\"2.1\",\"eventSource\":\"aws:s3\","
        + "\"awsRegion\":\"us-east-1\",\"eventTime\":\""
        + Instant.now()
        + "\",\"eventName\":\"ObjectCreated:Put\",\"s3\":{\"s3SchemaVersion\":\"1.0\","
        + "\"bucket\":{\"name\":\""
        + bucket
        + "\"},\"object\":{\"key\":\""
        + encoded
        + "\",\"size\":"
        + size
        + ",\"sequencer\":\"00\"}}}]}";
  }
}
