package io.lakestream.connectors.autoloader.notification;

import io.lakestream.api.annotation.Internal;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.autoloader.AutoLoaderErrorClass;
import java.io.Closeable;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;
import software.amazon.awssdk.services.s3.model.Event;
import software.amazon.awssdk.services.s3.model.FilterRule;
import software.amazon.awssdk.services.s3.model.FilterRuleName;
import software.amazon.awssdk.services.s3.model.GetBucketNotificationConfigurationResponse;
import software.amazon.awssdk.services.s3.model.NotificationConfiguration;
import software.amazon.awssdk.services.s3.model.NotificationConfigurationFilter;
import software.amazon.awssdk.services.s3.model.QueueConfiguration;
import software.amazon.awssdk.services.s3.model.S3KeyFilter;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.SqsClientBuilder;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueDoesNotExistException;

/**
 * The AWS resources Auto Loader sets up for file notification mode when no queue is given ({@code
 * cloudFiles.useNotifications=true} without {@code cloudFiles.queueUrl}), as Databricks does: an
 * SQS queue named {@link #NAME_PREFIX}{@code <query id>}, tagged with the query id, the input path
 * and {@code cloudFiles.resourceTag.*}, whose policy lets S3 send the bucket's events to it, and
 * the bucket's event notification ({@code s3:ObjectCreated:*} under the input prefix, with the
 * queue's name as its id) added beside the bucket's other notifications. Set-up is idempotent: a
 * restarted query finds its queue and its notification and changes nothing.
 *
 * <p>{@link #list} finds what queries set up (by the name prefix and tags); {@link #cleanUp}
 * removes a query's notification from its bucket and deletes its queue, leaving everything else.
 *
 * <p>Failures: every AWS call that fails is thrown as a {@link LakestreamException} ({@link
 * AutoLoaderErrorClass#NOTIFICATION_SETUP_FAILED}) that names the call, the resource and the
 * permission or option to check; credentials never appear in it.
 */
@Internal
public final class NotificationResources implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(NotificationResources.class);

  /** The prefix of the names of what Auto Loader creates. */
  public static final String NAME_PREFIX = "lakestream-auto-ingest-";

  /** The tag holding the id of the query a queue is for. */
  public static final String QUERY_ID_TAG = "lakestream.queryId";

  /** The tag holding the input path whose events a queue receives. */
  public static final String INPUT_PATH_TAG = "lakestream.inputPath";

  /** What one query set up. */
  public record Created(String queueUrl, String queryId, String inputPath) {}

  private final NotificationSettings settings;
  private final SqsClient sqs;
  private final S3Client s3;

  public NotificationResources(NotificationSettings settings) {
    this.settings = Objects.requireNonNull(settings, "settings");
    AwsCredentialsProvider credentials =
        settings.accessKey() != null
            ? StaticCredentialsProvider.create(
                AwsBasicCredentials.create(settings.accessKey(), settings.secretKey()))
            : DefaultCredentialsProvider.builder().build();
    SqsClientBuilder sqsBuilder =
        SqsClient.builder()
            .httpClientBuilder(UrlConnectionHttpClient.builder())
            .region(Region.of(settings.region()))
            .credentialsProvider(credentials);
    if (settings.endpoint() != null) {
      sqsBuilder.endpointOverride(URI.create(settings.endpoint()));
    }
    S3ClientBuilder s3Builder =
        S3Client.builder()
            .httpClientBuilder(UrlConnectionHttpClient.builder())
            .region(Region.of(settings.region()))
            .credentialsProvider(credentials);
    if (settings.s3Endpoint() != null) {
      s3Builder.endpointOverride(URI.create(settings.s3Endpoint())).forcePathStyle(true);
    }
    this.sqs = sqsBuilder.build();
    this.s3 = s3Builder.build();
  }

  /** The name of the queue (and the notification's id) of query {@code queryId}. */
  public static String nameFor(String queryId) {
    String name = NAME_PREFIX + queryId.replaceAll("[^A-Za-z0-9_-]", "-");
    return name.length() <= 80 ? name : name.substring(0, 80); // SQS' limit
  }

  /**
   * Creates (or finds) query {@code queryId}'s queue and the notification of {@code inputPath}'s
   * bucket to it.
   *
   * @return the queue's URL
   */
  public String setUp(String queryId, String inputPath) {
    String name = nameFor(queryId);
    Map<String, String> tags = new LinkedHashMap<>(settings.resourceTags());
    tags.put(QUERY_ID_TAG, queryId);
    tags.put(INPUT_PATH_TAG, inputPath);
    String url = existingQueue(name).orElseGet(() -> createQueue(name, tags));
    String arn =
        call(
            "sqs:GetQueueAttributes",
            url,
            () ->
                sqs.getQueueAttributes(
                        b -> b.queueUrl(url).attributeNames(QueueAttributeName.QUEUE_ARN))
                    .attributes()
                    .get(QueueAttributeName.QUEUE_ARN));
    String bucket = URI.create(inputPath).getHost();
    call(
        "sqs:SetQueueAttributes",
        url,
        () ->
            sqs.setQueueAttributes(
                b ->
                    b.queueUrl(url)
                        .attributes(Map.of(QueueAttributeName.POLICY, policy(arn, bucket)))));
    NotificationConfiguration current = notifications(bucket);
    NotificationConfiguration wanted = withQueue(current, name, arn, prefixOf(inputPath));
    if (!wanted.equals(current)) {
      putNotifications(bucket, wanted);
      LOG.info(
          "Auto Loader set up file notifications for {}: queue {}, bucket {} notification {}",
          inputPath,
          url,
          bucket,
          name);
    }
    return url;
  }

  /** The URL of the queue {@code name}, if it exists (a restart's set-up finds it). */
  private Optional<String> existingQueue(String name) {
    try {
      return Optional.of(sqs.getQueueUrl(b -> b.queueName(name)).queueUrl());
    } catch (QueueDoesNotExistException e) {
      return Optional.empty();
    } catch (SdkException e) {
      return call(
          "sqs:GetQueueUrl",
          name,
          () -> {
            throw e;
          });
    }
  }

  private String createQueue(String name, Map<String, String> tags) {
    return call(
        "sqs:CreateQueue",
        name,
        () -> sqs.createQueue(b -> b.queueName(name).tags(tags)).queueUrl());
  }

  /** The queues Auto Loader set up, with the query and input path of each. */
  public List<Created> list() {
    List<String> urls =
        call(
            "sqs:ListQueues",
            NAME_PREFIX + "*",
            () -> sqs.listQueues(b -> b.queueNamePrefix(NAME_PREFIX)).queueUrls());
    List<Created> created = new ArrayList<>();
    for (String url : urls) {
      Map<String, String> tags =
          call("sqs:ListQueueTags", url, () -> sqs.listQueueTags(b -> b.queueUrl(url)).tags());
      created.add(new Created(url, tags.get(QUERY_ID_TAG), tags.get(INPUT_PATH_TAG)));
    }
    return created;
  }

  /** Removes {@code created}'s notification from its bucket and deletes its queue. */
  public void cleanUp(Created created) {
    if (created.inputPath() != null && created.queryId() != null) {
      String bucket = URI.create(created.inputPath()).getHost();
      NotificationConfiguration current = notifications(bucket);
      NotificationConfiguration rest = withoutQueue(current, nameFor(created.queryId()));
      if (!rest.equals(current)) {
        putNotifications(bucket, rest);
      }
    }
    call(
        "sqs:DeleteQueue",
        created.queueUrl(),
        () -> sqs.deleteQueue(b -> b.queueUrl(created.queueUrl())));
    LOG.info("Auto Loader removed the file notification resources of query {}", created.queryId());
  }

  /**
   * The queue policy that lets S3 send events of {@code bucket} to the queue {@code queueArn}, and
   * nothing else.
   */
  static String policy(String queueArn, String bucket) {
    return "{\"Version\":\"2012-10-17\",\"Statement\":[{\"Sid\":\"lakestream-auto-ingest-s3\","
        + "\"Effect\":\"Allow\",\"Principal\":{\"Service\":\"s3.amazonaws.com\"},"
        + "\"Action\":\"sqs:SendMessage\",\"Resource\":\""
        + queueArn
        + "\",\"Condition\":{\"ArnLike\":{\"aws:SourceArn\":\"arn:aws:s3:*:*:"
        + bucket
        + "\"}}}]}";
  }

  /**
   * {@code current} with a queue notification {@code id} for objects created under {@code prefix}
   * sent to {@code queueArn} (replacing an older one of that id); the other notifications kept.
   */
  static NotificationConfiguration withQueue(
      NotificationConfiguration current, String id, String queueArn, String prefix) {
    List<QueueConfiguration> queues = new ArrayList<>();
    for (QueueConfiguration q : current.queueConfigurations()) {
      if (!id.equals(q.id())) {
        queues.add(q);
      }
    }
    QueueConfiguration.Builder ours =
        QueueConfiguration.builder().id(id).queueArn(queueArn).events(Event.S3_OBJECT_CREATED);
    if (!prefix.isEmpty()) {
      ours.filter(
          NotificationConfigurationFilter.builder()
              .key(
                  S3KeyFilter.builder()
                      .filterRules(
                          FilterRule.builder().name(FilterRuleName.PREFIX).value(prefix).build())
                      .build())
              .build());
    }
    QueueConfiguration wanted = ours.build();
    if (current.queueConfigurations().contains(wanted)) {
      return current;
    }
    queues.add(wanted);
    return current.toBuilder().queueConfigurations(queues).build();
  }

  /** {@code current} without the queue notification {@code id}. */
  static NotificationConfiguration withoutQueue(NotificationConfiguration current, String id) {
    List<QueueConfiguration> queues = new ArrayList<>();
    for (QueueConfiguration q : current.queueConfigurations()) {
      if (!id.equals(q.id())) {
        queues.add(q);
      }
    }
    return queues.size() == current.queueConfigurations().size()
        ? current
        : current.toBuilder().queueConfigurations(queues).build();
  }

  /** The key prefix of {@code inputPath} in its bucket, ending with '/' (empty for the bucket). */
  static String prefixOf(String inputPath) {
    String path = URI.create(inputPath).getPath();
    String trimmed = path == null ? "" : path.replaceAll("^/+|/+$", "");
    return trimmed.isEmpty() ? "" : trimmed + "/";
  }

  private NotificationConfiguration notifications(String bucket) {
    GetBucketNotificationConfigurationResponse r =
        call(
            "s3:GetBucketNotification",
            bucket,
            () -> s3.getBucketNotificationConfiguration(b -> b.bucket(bucket)));
    return NotificationConfiguration.builder()
        .queueConfigurations(r.queueConfigurations())
        .topicConfigurations(r.topicConfigurations())
        .lambdaFunctionConfigurations(r.lambdaFunctionConfigurations())
        .eventBridgeConfiguration(r.eventBridgeConfiguration())
        .build();
  }

  private void putNotifications(String bucket, NotificationConfiguration configuration) {
    call(
        "s3:PutBucketNotification",
        bucket,
        () ->
            s3.putBucketNotificationConfiguration(
                b -> b.bucket(bucket).notificationConfiguration(configuration)));
  }

  private static <T> T call(String action, String resource, java.util.function.Supplier<T> call) {
    try {
      return call.get();
    } catch (SdkException e) {
      throw new LakestreamException(
          AutoLoaderErrorClass.NOTIFICATION_SETUP_FAILED,
          "Auto Loader could not set up file notifications: "
              + action
              + " on "
              + resource
              + " failed ("
              + e.getMessage()
              + "). Check that the query's AWS credentials allow "
              + action
              + " and that cloudFiles.region, cloudFiles.sqsEndpoint and cloudFiles.s3Endpoint"
              + " are right, or create the queue and the bucket notification yourself and pass"
              + " the queue with cloudFiles.queueUrl.",
          e);
    }
  }

  @Override
  public void close() {
    sqs.close();
    s3.close();
  }
}
