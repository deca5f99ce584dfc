package io.lakestream.connectors.autoloader.notification;

import io.lakestream.api.annotation.Internal;
import java.io.Serializable;
import java.util.Map;
import java.util.Objects;

/**
 * Where Auto Loader's file notification mode reads S3 event notifications from: an SQS queue the
 * bucket's {@code s3:ObjectCreated:*} events are sent to (directly or through SNS).
 *
 * @param queueUrl the queue's URL ({@code cloudFiles.queueUrl}); null: Auto Loader sets up a queue
 *     of its own and the bucket's notification to it ({@link NotificationResources})
 * @param region the queue's AWS region ({@code cloudFiles.region})
 * @param endpoint an SQS endpoint override, e.g. a local SQS-API server; null for AWS
 * @param accessKey an access key ({@code cloudFiles.awsAccessKey}); null for the default chain
 * @param secretKey its secret ({@code cloudFiles.awsSecretKey}); never printed
 * @param visibilityTimeoutSeconds how long a received message stays hidden before SQS delivers it
 *     again (a crashed query's messages come back after it); 0 keeps the queue's own setting
 * @param s3Endpoint an S3 endpoint override for the bucket notification set-up; null for AWS
 * @param useSns whether the set-up puts an SNS topic between the bucket and the queue ({@code
 *     cloudFiles.useSns})
 * @param snsEndpoint an SNS endpoint override for the topic set-up; null for AWS
 * @param resourceTags tags of the resources Auto Loader creates ({@code cloudFiles.resourceTag.*})
 */
@Internal
public record NotificationSettings(
    String queueUrl,
    String region,
    String endpoint,
    String accessKey,
    String secretKey,
    int visibilityTimeoutSeconds,
    String s3Endpoint,
    boolean useSns,
    String snsEndpoint,
    Map<String, String> resourceTags)
    implements Serializable {

  public NotificationSettings {
    Objects.requireNonNull(region, "region");
    resourceTags = Map.copyOf(resourceTags);
  }

  /** Settings of an existing queue. */
  public NotificationSettings(
      String queueUrl,
      String region,
      String endpoint,
      String accessKey,
      String secretKey,
      int visibilityTimeoutSeconds) {
    this(
        Objects.requireNonNull(queueUrl, "queueUrl"),
        region,
        endpoint,
        accessKey,
        secretKey,
        visibilityTimeoutSeconds,
        null,
        false,
        null,
        Map.of());
  }

  /** These settings with the queue {@code url} (once set up). */
  public NotificationSettings withQueueUrl(String url) {
    return new NotificationSettings(
        url,
        region,
        endpoint,
        accessKey,
        secretKey,
        visibilityTimeoutSeconds,
        s3Endpoint,
        useSns,
        snsEndpoint,
        resourceTags);
  }

  /** The settings without the credentials. */
  @Override
  public String toString() {
    return "NotificationSettings[queueUrl="
        + queueUrl
        + ", region="
        + region
        + ", endpoint="
        + endpoint
        + ", credentials="
        + (accessKey == null ? "default chain" : "static (hidden)")
        + ", visibilityTimeoutSeconds="
        + visibilityTimeoutSeconds
        + ", s3Endpoint="
        + s3Endpoint
        + ", useSns="
        + useSns
        + ", snsEndpoint="
        + snsEndpoint
        + ", resourceTags="
        + resourceTags
        + "]";
  }

  /**
   * The region of an AWS queue URL ({@code https://sqs.<region>.amazonaws.com/<account>/<name>}),
   * or null when the URL does not name one.
   */
  public static String regionOf(String queueUrl) {
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile("^https?://sqs\\.([a-z0-9-]+)\\.amazonaws\\.com(\\.cn)?/")
            .matcher(queueUrl);
    return m.find() ? m.group(1) : null;
  }
}
