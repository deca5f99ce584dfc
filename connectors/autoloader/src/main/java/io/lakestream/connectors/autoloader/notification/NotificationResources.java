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
import software.amazon.awssdk.services.s3.model.TopicConfiguration;
import software.amazon.awssdk.services.sns.SnsClient;
import software.amazon.awssdk.services.sns.SnsClientBuilder;
import software.amazon.awssdk.services.sns.model.NotFoundException;
import software.amazon.awssdk.services.sns.model.Subscription;
import software.amazon.awssdk.services.sns.model.Tag;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.SqsClientBuilder;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueDoesNotExistException;

/**
 * The AWS resources Auto Loader sets up for file notification mode when no queue is given ({@code
 * cloudFiles.useNotifications=true} without {@code cloudFiles.queueUrl}), as Databricks does: an
 * SQS queue named {@link #NAME_PREFIX}{@code <query id>}, tagged with the query id, the input path
 * and {@code cloudFiles.resourceTag.*}, and the bucket's event notification ({@code
 * s3:ObjectCreated:*} under the input prefix, with the queue's name as its id) added beside the
 * bucket's other notifications. Directly, the notification goes to the queue, whose policy lets
 * only S3 send the bucket's events. With {@code cloudFiles.useSns=true} (Databricks' classic
 * set-up), it goes to an SNS topic of the same name and tags, whose policy lets only S3 publish the
 * bucket's events, and the queue is subscribed to the topic (SNS's JSON envelope, unwrapped by
 * {@link S3EventMessage}), its policy letting only that topic send; others can subscribe to the
 * topic too. Set-up is idempotent: a restarted query finds its queue, topic, subscription and
 * notification and changes nothing.
 *
 * <p>{@link #list} finds what queries set up (by the name prefix and the queue's tags, which name
 * the topic); {@link #cleanUp} removes a query's notification from its bucket, its topic with its
 * subscriptions, and its queue, leaving everything else.
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

  /** The tag holding the id of the query a queue (or topic) is for. */
  public static final String QUERY_ID_TAG = "lakestream.queryId";

  /** The tag holding the input path whose events a queue (or topic) receives. */
  public static final String INPUT_PATH_TAG = "lakestream.inputPath";

  /** The queue's tag holding the ARN of the topic it is subscribed to (with cloudFiles.useSns). */
  public static final String TOPIC_ARN_TAG = "lakestream.topicArn";

  /**
   * What one query set up.
   *
   * @param topicArn the topic between the bucket and the queue; null when the bucket notifies the
   *     queue directly
   */
  public record Created(String queueUrl, String queryId, String inputPath, String topicArn) {}

  private final NotificationSettings settings;
  private final SqsClient sqs;
  private final S3Client s3;
  private final SnsClient sns;

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
    SnsClientBuilder snsBuilder =
        SnsClient.builder()
            .httpClientBuilder(UrlConnectionHttpClient.builder())
            .region(Region.of(settings.region()))
            .credentialsProvider(credentials);
    if (settings.snsEndpoint() != null) {
      snsBuilder.endpointOverride(URI.create(settings.snsEndpoint()));
    }
    this.sqs = sqsBuilder.build();
    this.s3 = s3Builder.build();
    this.sns = snsBuilder.build();
  }

  /** The name of the queue (and the topic, and the notification's id) of query {@code queryId}. */
  public static String nameFor(String queryId) {
    String name = NAME_PREFIX + queryId.replaceAll("[^A-Za-z0-9_-]", "-");
    return name.length() <= 80 ? name : name.substring(0, 80); // SQS' limit
  }

  /**
   * Creates (or finds) query {@code queryId}'s queue, with {@code cloudFiles.useSns} its topic and
   * the queue's subscription to it, and the notification of {@code inputPath}'s bucket to the topic
   * or the queue.
   *
   * @return the queue's URL
   */
  public String setUp(String queryId, String inputPath) {
    String name = nameFor(queryId);
    Map<String, String> tags = new LinkedHashMap<>(settings.resourceTags());
    tags.put(QUERY_ID_TAG, queryId);
    tags.put(INPUT_PATH_TAG, inputPath);
    String url = existingQueue(name).orElseGet(() -> createQueue(name, tags));
    String queueArn = queueArn(url);
    String bucket = URI.create(inputPath).getHost();
    NotificationConfiguration current = notifications(bucket);
    NotificationConfiguration wanted;
    if (settings.useSns()) {
      String topicArn = setUpTopic(name, tags, bucket);
      subscribe(topicArn, url, queueArn);
      wanted = withTopic(current, name, topicArn, prefixOf(inputPath));
    } else {
      setQueuePolicy(url, policy(queueArn, "sqs:SendMessage", "s3.amazonaws.com", s3Arn(bucket)));
      wanted = withQueue(current, name, queueArn, prefixOf(inputPath));
    }
    if (!wanted.equals(current)) {
      putNotifications(bucket, wanted);
      LOG.info(
          "Auto Loader set up file notifications for {}: queue {}, bucket {} notification {}{}",
          inputPath,
          url,
          bucket,
          name,
          settings.useSns() ? " through SNS topic " + name : "");
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

  private String queueArn(String url) {
    return call(
        "sqs:GetQueueAttributes",
        url,
        () ->
            sqs.getQueueAttributes(
                    b -> b.queueUrl(url).attributeNames(QueueAttributeName.QUEUE_ARN))
                .attributes()
                .get(QueueAttributeName.QUEUE_ARN));
  }

  private void setQueuePolicy(String url, String policy) {
    call(
        "sqs:SetQueueAttributes",
        url,
        () ->
            sqs.setQueueAttributes(
                b -> b.queueUrl(url).attributes(Map.of(QueueAttributeName.POLICY, policy))));
  }

  /**
   * Creates (or finds: SNS's CreateTopic returns an existing topic of that name) the topic {@code
   * name}, tags it and lets S3 publish {@code bucket}'s events to it.
   *
   * @return the topic's ARN
   */
  private String setUpTopic(String name, Map<String, String> tags, String bucket) {
    String topicArn =
        call("sns:CreateTopic", name, () -> sns.createTopic(b -> b.name(name)).topicArn());
    List<Tag> snsTags = new ArrayList<>();
    tags.forEach((k, v) -> snsTags.add(Tag.builder().key(k).value(v).build()));
    call(
        "sns:TagResource",
        topicArn,
        () -> sns.tagResource(b -> b.resourceArn(topicArn).tags(snsTags)));
    String policy = policy(topicArn, "SNS:Publish", "s3.amazonaws.com", s3Arn(bucket));
    call(
        "sns:SetTopicAttributes",
        topicArn,
        () ->
            sns.setTopicAttributes(
                b -> b.topicArn(topicArn).attributeName("Policy").attributeValue(policy)));
    return topicArn;
  }

  /**
   * Lets the topic send to the queue, subscribes the queue to it unless it is already, and tags the
   * queue with the topic (for clean-up). Messages keep SNS's envelope (no raw delivery), as in
   * Databricks' set-up; the reader unwraps it.
   */
  private void subscribe(String topicArn, String url, String queueArn) {
    setQueuePolicy(url, policy(queueArn, "sqs:SendMessage", "sns.amazonaws.com", topicArn));
    boolean subscribed =
        subscriptions(topicArn).stream()
            .anyMatch(s -> "sqs".equals(s.protocol()) && queueArn.equals(s.endpoint()));
    if (!subscribed) {
      call(
          "sns:Subscribe",
          topicArn,
          () ->
              sns.subscribe(
                  b ->
                      b.topicArn(topicArn)
                          .protocol("sqs")
                          .endpoint(queueArn)
                          .returnSubscriptionArn(true)));
    }
    call(
        "sqs:TagQueue",
        url,
        () -> sqs.tagQueue(b -> b.queueUrl(url).tags(Map.of(TOPIC_ARN_TAG, topicArn))));
  }

  /** The subscriptions of topic {@code topicArn}. */
  public List<Subscription> subscriptions(String topicArn) {
    return call(
        "sns:ListSubscriptionsByTopic",
        topicArn,
        () -> {
          List<Subscription> all = new ArrayList<>();
          sns.listSubscriptionsByTopicPaginator(b -> b.topicArn(topicArn))
              .subscriptions()
              .forEach(all::add);
          return all;
        });
  }

  /** The queues Auto Loader set up, with the query, input path and topic of each. */
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
      created.add(
          new Created(
              url, tags.get(QUERY_ID_TAG), tags.get(INPUT_PATH_TAG), tags.get(TOPIC_ARN_TAG)));
    }
    return created;
  }

  /**
   * Removes {@code created}'s notification from its bucket, its topic's subscriptions and topic (a
   * topic already gone is skipped), and deletes its queue.
   */
  public void cleanUp(Created created) {
    if (created.inputPath() != null && created.queryId() != null) {
      String bucket = URI.create(created.inputPath()).getHost();
      NotificationConfiguration current = notifications(bucket);
      NotificationConfiguration rest = without(current, nameFor(created.queryId()));
      if (!rest.equals(current)) {
        putNotifications(bucket, rest);
      }
    }
    if (created.topicArn() != null) {
      deleteTopic(created.topicArn());
    }
    call(
        "sqs:DeleteQueue",
        created.queueUrl(),
        () -> sqs.deleteQueue(b -> b.queueUrl(created.queueUrl())));
    LOG.info("Auto Loader removed the file notification resources of query {}", created.queryId());
  }

  private void deleteTopic(String topicArn) {
    List<Subscription> subscriptions;
    try {
      subscriptions = subscriptions(topicArn);
    } catch (LakestreamException e) {
      if (e.getCause() instanceof NotFoundException) {
        LOG.info("Auto Loader's topic {} is gone already", topicArn);
        return;
      }
      throw e;
    }
    for (Subscription subscription : subscriptions) {
      call(
          "sns:Unsubscribe",
          subscription.subscriptionArn(),
          () -> sns.unsubscribe(b -> b.subscriptionArn(subscription.subscriptionArn())));
    }
    call("sns:DeleteTopic", topicArn, () -> sns.deleteTopic(b -> b.topicArn(topicArn)));
  }

  /**
   * The policy that lets {@code service} call {@code action} on {@code resourceArn} for events of
   * {@code sourceArn} alone, and nothing else.
   */
  static String policy(String resourceArn, String action, String service, String sourceArn) {
    return "{\"Version\":\"2012-10-17\",\"Statement\":[{\"Sid\":\"lakestream-auto-ingest\","
        + "\"Effect\":\"Allow\",\"Principal\":{\"Service\":\""
        + service
        + "\"},\"Action\":\""
        + action
        + "\",\"Resource\":\""
        + resourceArn
        + "\",\"Condition\":{\"ArnLike\":{\"aws:SourceArn\":\""
        + sourceArn
        + "\"}}}]}";
  }

  /** The ARN pattern of {@code bucket} in any region and account. */
  private static String s3Arn(String bucket) {
    return "arn:aws:s3:*:*:" + bucket;
  }

  /**
   * {@code current} with a queue notification {@code id} for objects created under {@code prefix}
   * sent to {@code queueArn} (replacing an older one of that id, queue or topic); the other
   * notifications kept.
   */
  static NotificationConfiguration withQueue(
      NotificationConfiguration current, String id, String queueArn, String prefix) {
    QueueConfiguration wanted =
        QueueConfiguration.builder()
            .id(id)
            .queueArn(queueArn)
            .events(Event.S3_OBJECT_CREATED)
            .filter(filter(prefix))
            .build();
    NotificationConfiguration rest = without(current, id);
    if (current.queueConfigurations().contains(wanted) && count(current) == count(rest) + 1) {
      return current;
    }
    List<QueueConfiguration> queues = new ArrayList<>(rest.queueConfigurations());
    queues.add(wanted);
    return rest.toBuilder().queueConfigurations(queues).build();
  }

  /**
   * {@code current} with a topic notification {@code id} for objects created under {@code prefix}
   * published to {@code topicArn} (replacing an older one of that id, queue or topic); the other
   * notifications kept.
   */
  static NotificationConfiguration withTopic(
      NotificationConfiguration current, String id, String topicArn, String prefix) {
    TopicConfiguration wanted =
        TopicConfiguration.builder()
            .id(id)
            .topicArn(topicArn)
            .events(Event.S3_OBJECT_CREATED)
            .filter(filter(prefix))
            .build();
    NotificationConfiguration rest = without(current, id);
    if (current.topicConfigurations().contains(wanted) && count(current) == count(rest) + 1) {
      return current;
    }
    List<TopicConfiguration> topics = new ArrayList<>(rest.topicConfigurations());
    topics.add(wanted);
    return rest.toBuilder().topicConfigurations(topics).build();
  }

  /**
   * {@code current} without the queue and topic notifications {@code id} ({@code current} if none).
   */
  static NotificationConfiguration without(NotificationConfiguration current, String id) {
    List<QueueConfiguration> queues = new ArrayList<>();
    current.queueConfigurations().stream().filter(q -> !id.equals(q.id())).forEach(queues::add);
    List<TopicConfiguration> topics = new ArrayList<>();
    current.topicConfigurations().stream().filter(t -> !id.equals(t.id())).forEach(topics::add);
    return queues.size() + topics.size() == count(current)
        ? current
        : current.toBuilder().queueConfigurations(queues).topicConfigurations(topics).build();
  }

  private static int count(NotificationConfiguration configuration) {
    return configuration.queueConfigurations().size() + configuration.topicConfigurations().size();
  }

  /** The filter of the objects under {@code prefix}; null (all objects) for the empty prefix. */
  private static NotificationConfigurationFilter filter(String prefix) {
    if (prefix.isEmpty()) {
      return null;
    }
    return NotificationConfigurationFilter.builder()
        .key(
            S3KeyFilter.builder()
                .filterRules(FilterRule.builder().name(FilterRuleName.PREFIX).value(prefix).build())
                .build())
        .build();
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
              + (action.startsWith("sns:")
                  ? " and that cloudFiles.region and cloudFiles.snsEndpoint are right, or set"
                      + " cloudFiles.useSns=false to have the bucket notify the queue directly,"
                  : " and that cloudFiles.region, cloudFiles.sqsEndpoint and cloudFiles.s3Endpoint"
                      + " are right,")
              + " or create the queue and the bucket notification yourself and pass the queue"
              + " with cloudFiles.queueUrl.",
          e);
    }
  }

  @Override
  public void close() {
    sqs.close();
    s3.close();
    sns.close();
  }
}
