package io.lakestream.connectors.autoloader;

import static io.lakestream.testkit.sqs.S3EventNotifications.objectCreated;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.autoloader.notification.BucketNotificationPeer;
import io.lakestream.connectors.autoloader.notification.NotificationResources;
import io.lakestream.connectors.autoloader.notification.NotificationSettings;
import io.lakestream.connectors.autoloader.notification.S3EventMessage;
import io.lakestream.connectors.autoloader.notification.SnsPeer;
import io.lakestream.connectors.autoloader.source.enumerator.FileDiscoveryEnumerator;
import io.lakestream.state.checkpoint.CheckpointLocation;
import io.lakestream.state.query.OutputMode;
import io.lakestream.state.query.QueryContext;
import io.lakestream.testkit.flink.FlinkMiniClusterExtension;
import io.lakestream.testkit.s3.S3ServerExtension;
import io.lakestream.testkit.s3.S3aSettings;
import io.lakestream.testkit.sqs.SqsServer;
import io.lakestream.testkit.sqs.SqsServerExtension;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.types.Row;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sns.SnsClient;

/**
 * File notification mode against a real S3-API server (s3proxy) and a real SQS-API server
 * (ElasticMQ): the test puts objects and publishes the S3 event JSON S3 would send (s3proxy sends
 * none), leaving some out and duplicating others. Every file's rows reach an exactly-once sink
 * once, row for row: from notifications alone (no listing call), from the backfill listing for
 * missed events, across a failure restored from a checkpoint, and across a crash before any
 * checkpoint (messages not deleted, delivered again after the visibility timeout).
 */
class AutoLoaderNotificationITCase {
  @RegisterExtension
  @Order(1)
  static final S3ServerExtension S3 = new S3ServerExtension("autoloader-sqs");

  @RegisterExtension
  @Order(2)
  static final SqsServerExtension SQS = new SqsServerExtension();

  @RegisterExtension
  @Order(3)
  static final FlinkMiniClusterExtension FLINK = new FlinkMiniClusterExtension();

  private static final int ROWS_PER_FILE = 20;
  private static final Duration VISIBILITY = Duration.ofSeconds(2);
  private static final Duration WAIT = Duration.ofSeconds(60);

  static final AtomicBoolean FAILED = new AtomicBoolean();
  static final AtomicLong FAIL_AT_ID = new AtomicLong(Long.MAX_VALUE);
  static final AtomicInteger CHECKPOINTS = new AtomicInteger();
  static final AtomicLong SEEN = new AtomicLong();

  @TempDir Path dir;

  @BeforeEach
  void reset() {
    FAILED.set(false);
    FAIL_AT_ID.set(Long.MAX_VALUE);
    CHECKPOINTS.set(0);
    SEEN.set(0);
  }

  private final Map<String, String> conf = S3aSettings.of(S3.server());

  private String input(String name) {
    return S3aSettings.uri(S3.server(), "landing/" + name);
  }

  private static final String TEST_EVENT =
      "{\"Service\":\"Amazon S3\",\"Event\":\"s3:TestEvent\",\"Time\":\"2026-11-29T00:00:00Z\","
          + "\"Bucket\":\"autoloader-sqs\",\"RequestId\":\"r\",\"HostId\":\"h\"}";

  private QueryContext query(String chk) {
    return query(chk, "qid");
  }

  private QueryContext query(String chk, String queryId) {
    return new QueryContext(
        queryId,
        "bronze",
        "run-1",
        "bronze-qid",
        dir.resolve(chk).toUri().toString(),
        false,
        false,
        OutputMode.APPEND);
  }

  private AutoLoader loader(String inputName, String queueUrl, QueryContext query, String... opts) {
    Map<String, String> options = new TreeMap<>();
    options.put("cloudFiles.format", "json");
    options.put("cloudFiles.useNotifications", "true");
    if (queueUrl != null) {
      options.put("cloudFiles.queueUrl", queueUrl);
    }
    options.put("cloudFiles.region", SqsServer.REGION);
    options.put("cloudFiles.sqsEndpoint", SQS.endpoint().toString());
    options.put("cloudFiles.awsAccessKey", SqsServer.ACCESS_KEY);
    options.put("cloudFiles.awsSecretKey", SqsServer.SECRET_KEY);
    for (int i = 0; i < opts.length; i += 2) {
      options.put(opts[i], opts[i + 1]);
    }
    return AutoLoaderBuilder.forPath(input(inputName))
        .name("events-files")
        .hadoopConf(conf)
        .query(query)
        .schema("id BIGINT, name STRING")
        .options(options)
        .build();
  }

  /** Writes {@code count} files from {@code firstFile}; returns their keys (relative). */
  private List<String> writeFiles(LandingZone landing, int firstFile, int count) throws Exception {
    Map<String, List<String>> files = new TreeMap<>();
    for (int f = firstFile; f < firstFile + count; f++) {
      files.put(String.format("date=2026-11-29/part %03d.json", f), lines(f));
    }
    landing.writeAll(files);
    return List.copyOf(files.keySet());
  }

  private void publish(String queue, String inputName, String key) {
    String full = "landing/" + inputName + "/" + key;
    SQS.server().send(queue, objectCreated(S3.bucket(), full, 100));
  }

  private static List<String> lines(int file) {
    return LongStream.range((long) file * ROWS_PER_FILE, (long) (file + 1) * ROWS_PER_FILE)
        .mapToObj(id -> "{\"id\":" + id + ",\"name\":\"row-" + id + "\"}")
        .collect(Collectors.toList());
  }

  private static StreamExecutionEnvironment environment(boolean restarts) {
    StreamExecutionEnvironment env = FLINK.environment();
    Configuration config = new Configuration();
    if (restarts) {
      config.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
      config.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 3);
      config.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(200));
    } else {
      config.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
    }
    env.configure(config);
    env.setParallelism(2);
    return env;
  }

  /** Every id of files {@code [0, files)} exactly once, each with its name. */
  private static void assertExactlyOnce(List<String[]> rows, int files) {
    assertThat(rows.stream().map(r -> Long.parseLong(r[0])).sorted().collect(Collectors.toList()))
        .containsExactlyElementsOf(
            LongStream.range(0, (long) files * ROWS_PER_FILE).boxed().collect(Collectors.toList()));
    for (String[] row : rows) {
      assertThat(row[1]).isEqualTo("row-" + row[0]);
    }
  }

  /** The source's full listings so far, from the newest offsets record; 0 before the first. */
  private long fullListings(String chk) {
    try {
      if (new CheckpointLocation(dir.resolve(chk).toUri()).epochs().offsetEpochs().isEmpty()) {
        return 0;
      }
      JsonNode offsets = lastSourceOffsets(chk);
      return offsets == null ? 0 : offsets.path("metrics").path("fullListings").asLong();
    } catch (Exception e) {
      throw new IllegalStateException("cannot read the offsets in " + chk, e);
    }
  }

  private JsonNode lastSourceOffsets(String chk) throws Exception {
    CheckpointLocation location = new CheckpointLocation(dir.resolve(chk).toUri());
    List<Long> epochs = location.epochs().offsetEpochs();
    return location.epochs().readOffsets(epochs.get(epochs.size() - 1)).get("events-files");
  }

  @Test
  void filesFromNotificationsOnlyWithoutListingAndDuplicatesReadOnce() throws Exception {
    String queue = SQS.server().createQueue("only-notifications", VISIBILITY);
    LandingZone landing = new LandingZone(input("n1"), conf);
    QueryContext query = query("chk1");
    AutoLoader loader = loader("n1", queue, query, "cloudFiles.includeExistingFiles", "false");
    StreamExecutionEnvironment env = environment(false);
    CommittedRows out = new CommittedRows(dir.resolve("out1"));
    loader.stream(env).sinkTo(out.sink()).uid("out");
    JobID job = FLINK.submit(env);

    SQS.server().send(queue, TEST_EVENT);
    List<String> keys = writeFiles(landing, 0, 12);
    for (String key : keys) {
      publish(queue, "n1", key);
    }
    for (String key : keys.subList(0, 4)) {
      publish(queue, "n1", key); // S3 may deliver an event more than once
    }
    publish(queue, "other", "date=2026-11-29/elsewhere.json"); // outside the input path
    publish(queue, "n1", "_temporary/part 000.json"); // hidden
    int messages = 1 + 12 + 4 + 2;

    CommittedRows.await(() -> out.rows().size() >= 12 * ROWS_PER_FILE, "the rows of 12 files");
    CommittedRows.await(
        () -> SQS.server().messagesNotDeleted(queue) == 0, "the messages to be deleted");
    FLINK.cluster().waitForMoreCheckpoints(job, 3, WAIT); // a duplicate would have landed by then
    FLINK.cluster().cancel(job, Duration.ofSeconds(60));

    assertExactlyOnce(out.rows(), 12);
    JsonNode offsets = lastSourceOffsets("chk1");
    assertThat(offsets.get("offsets").get(FileDiscoveryEnumerator.LISTING_CALLS).asLong())
        .as("no listing in notification mode without backfill")
        .isZero();
    assertThat(offsets.get("metrics").get(FileDiscoveryEnumerator.NOTIFICATIONS_RECEIVED).asLong())
        .as("every message, some again after the visibility timeout on a busy machine")
        .isGreaterThanOrEqualTo(messages);
    assertThat(offsets.get("metrics").get("approximateQueueSize").asLong())
        .as("SQS's count of the messages waiting, none once all are read")
        .isZero();
  }

  @Test
  void missedEventsFoundByBackfillAndAFailureReadsEveryFileOnce() throws Exception {
    String queue = SQS.server().createQueue("with-backfill", VISIBILITY);
    LandingZone landing = new LandingZone(input("n2"), conf);
    QueryContext query = query("chk2");
    AutoLoader loader = loader("n2", queue, query, "cloudFiles.backfillInterval", "2 s");
    StreamExecutionEnvironment env = environment(true);
    CommittedRows out = new CommittedRows(dir.resolve("out2"));
    loader.stream(env).map(new FailOnce()).uid("fail-once").sinkTo(out.sink()).uid("out");
    JobID job = FLINK.submit(env);

    // round 1: every event sent once
    for (String key : writeFiles(landing, 0, 10)) {
      publish(queue, "n2", key);
    }
    CommittedRows.await(() -> out.rows().size() >= 10 * ROWS_PER_FILE, "round 1");
    CommittedRows.await(() -> CHECKPOINTS.get() >= 2, "two checkpoints");

    // round 2: two events lost, two duplicated; the job fails on the first row of round 2
    FAIL_AT_ID.set(10L * ROWS_PER_FILE);
    List<String> round2 = writeFiles(landing, 10, 10);
    for (String key : round2.subList(0, 8)) {
      publish(queue, "n2", key);
    }
    for (String key : round2.subList(0, 2)) {
      publish(queue, "n2", key);
    }
    CommittedRows.await(FAILED::get, "the injected failure");
    CommittedRows.await(() -> out.rows().size() >= 20 * ROWS_PER_FILE, "rounds 1 and 2");
    CommittedRows.await(
        () -> SQS.server().messagesNotDeleted(queue) == 0, "the messages to be deleted");
    // another backfill listing finds every file again, two checkpoints commit what it admits:
    // a duplicate, if any, has landed by then
    long listings = fullListings("chk2");
    CommittedRows.await(() -> fullListings("chk2") > listings, "another backfill listing");
    FLINK.cluster().waitForMoreCheckpoints(job, 2, WAIT);
    FLINK.cluster().cancel(job, Duration.ofSeconds(60));

    assertExactlyOnce(out.rows(), 20);
    JsonNode offsets = lastSourceOffsets("chk2");
    assertThat(offsets.get("metrics").get("fullListings").asLong()).isGreaterThan(0);
    assertThat(offsets.get("offsets").get(FileDiscoveryEnumerator.LISTING_CALLS).asLong())
        .isGreaterThan(0);
  }

  @Test
  void crashBeforeAnyCheckpointKeepsTheMessagesAndARestartReadsEveryFileOnce() throws Exception {
    String queue = SQS.server().createQueue("crash", VISIBILITY);
    LandingZone landing = new LandingZone(input("n3"), conf);

    // run 1: checkpoints never complete; every file is read, nothing may be deleted
    AutoLoader first = loader("n3", queue, query("chk3a"));
    StreamExecutionEnvironment env = environment(false);
    env.enableCheckpointing(Duration.ofHours(1).toMillis());
    CommittedRows lost = new CommittedRows(dir.resolve("out3a"));
    first.stream(env).map(new FailOnce()).uid("count").sinkTo(lost.sink()).uid("out");
    JobID job = FLINK.submit(env);
    List<String> keys = writeFiles(landing, 0, 10);
    for (String key : keys) {
      publish(queue, "n3", key);
    }
    publish(queue, "n3", keys.get(3));
    CommittedRows.await(() -> SEEN.get() >= 10L * ROWS_PER_FILE, "run 1 to read every file");
    Thread.sleep(1_000);
    assertThat(SQS.server().messagesNotDeleted(queue))
        .as("no checkpoint completed: no message deleted")
        .isEqualTo(11);
    FLINK.cluster().cancel(job, Duration.ofSeconds(60)); // the crash
    assertThat(lost.rows()).as("nothing committed by run 1").isEmpty();

    // run 2 from scratch: the messages come back after the visibility timeout
    AutoLoader second = loader("n3", queue, query("chk3b"));
    StreamExecutionEnvironment env2 = environment(false);
    CommittedRows out = new CommittedRows(dir.resolve("out3b"));
    second.stream(env2).sinkTo(out.sink()).uid("out");
    JobID job2 = FLINK.submit(env2);
    CommittedRows.await(() -> out.rows().size() >= 10 * ROWS_PER_FILE, "run 2");
    CommittedRows.await(
        () -> SQS.server().messagesNotDeleted(queue) == 0, "the messages to be deleted");
    FLINK.cluster().waitForMoreCheckpoints(job2, 3, WAIT); // a duplicate would have landed by then
    FLINK.cluster().cancel(job2, Duration.ofSeconds(60));
    assertExactlyOnce(out.rows(), 10);
  }

  /**
   * Without cloudFiles.queueUrl the query sets up its queue (tagged, with a policy for S3) and the
   * bucket's notification to it, beside the bucket's other notification; the files the events
   * announce are read once; a restart's set-up changes nothing; list finds it and clean-up removes
   * both, leaving the other notification.
   */
  @Test
  void setsUpItsQueueAndTheBucketNotificationAndCleansThemUp() throws Exception {
    try (BucketNotificationPeer s3 = new BucketNotificationPeer()) {
      String bucket = S3.bucket();
      String other =
          "<NotificationConfiguration><QueueConfiguration><Id>someone-else</Id>"
              + "<Queue>arn:aws:sqs:us-east-1:1:other</Queue><Event>s3:ObjectCreated:*</Event>"
              + "</QueueConfiguration></NotificationConfiguration>";
      s3.put(bucket, other);
      LandingZone landing = new LandingZone(input("n4"), conf);
      QueryContext query = query("chk4");
      AutoLoader loader =
          loader(
              "n4",
              null,
              query,
              "cloudFiles.s3Endpoint",
              s3.endpoint().toString(),
              "cloudFiles.resourceTag.team",
              "data");
      StreamExecutionEnvironment env = environment(false);
      CommittedRows out = new CommittedRows(dir.resolve("out4"));
      loader.stream(env).sinkTo(out.sink()).uid("out");
      JobID job = FLINK.submit(env);

      String name = NotificationResources.nameFor("qid");
      CommittedRows.await(() -> queueUrl(name) != null, "the query to create its queue");
      String url = queueUrl(name);
      var sqs = SQS.server().client();
      assertThat(sqs.listQueueTags(b -> b.queueUrl(url)).tags())
          .containsEntry("team", "data")
          .containsEntry(NotificationResources.QUERY_ID_TAG, "qid")
          .containsEntry(NotificationResources.INPUT_PATH_TAG, input("n4"));
      CommittedRows.await(
          () -> s3.configuration(bucket).contains("<Id>" + name + "</Id>"),
          "the bucket notification");
      String configuration = s3.configuration(bucket);
      assertThat(configuration)
          .contains("<Id>someone-else</Id>")
          .contains("<Event>s3:ObjectCreated:*</Event>")
          .contains("<Name>Prefix</Name><Value>landing/n4/</Value>");
      String arn =
          sqs.getQueueAttributes(b -> b.queueUrl(url).attributeNamesWithStrings("QueueArn"))
              .attributesAsStrings()
              .get("QueueArn");
      assertThat(configuration).contains("<Queue>" + arn + "</Queue>");

      // S3 would now send the events of new files to the queue
      for (String key : writeFiles(landing, 0, 5)) {
        publish(url, "n4", key);
      }
      CommittedRows.await(() -> out.rows().size() >= 5 * ROWS_PER_FILE, "the rows of 5 files");
      FLINK.cluster().waitForMoreCheckpoints(job, 2, WAIT);
      FLINK.cluster().cancel(job, Duration.ofSeconds(60));
      assertExactlyOnce(out.rows(), 5);

      try (NotificationResources resources = new NotificationResources(settings(s3))) {
        assertThat(resources.setUp("qid", input("n4"))).as("a restart finds it").isEqualTo(url);
        assertThat(s3.configuration(bucket)).isEqualTo(configuration);
        NotificationResources.Created created =
            resources.list().stream()
                .filter(c -> "qid".equals(c.queryId()))
                .findFirst()
                .orElseThrow();
        assertThat(created.queueUrl()).isEqualTo(url);
        assertThat(created.inputPath()).isEqualTo(input("n4"));
        resources.cleanUp(created);
        assertThat(queueUrl(name)).isNull();
        assertThat(s3.configuration(bucket)).contains("<Id>someone-else</Id>").doesNotContain(name);
      }
    }
  }

  /**
   * With cloudFiles.useSns the query sets up an SNS topic the bucket notifies (tagged, with a
   * policy for S3), its queue subscribed to it (policy for the topic alone): events S3 publishes to
   * the topic reach the query in SNS's envelope and each file is read once; a restart's set-up
   * changes nothing; another consumer's raw subscription gets the same events (fan-out); clean-up
   * removes the bucket notification, subscriptions, topic and queue and leaves the bucket's other
   * notification.
   */
  @Test
  void setsUpATopicItsQueueSubscribesToAndCleansThemUp() throws Exception {
    try (BucketNotificationPeer s3 = new BucketNotificationPeer();
        SnsPeer sns = new SnsPeer(SQS.server().client())) {
      String bucket = S3.bucket();
      String other =
          "<NotificationConfiguration><TopicConfiguration><Id>someone-else</Id>"
              + "<Topic>arn:aws:sns:us-east-1:1:other</Topic><Event>s3:ObjectCreated:*</Event>"
              + "</TopicConfiguration></NotificationConfiguration>";
      s3.put(bucket, other);
      LandingZone landing = new LandingZone(input("n5"), conf);
      AutoLoader loader =
          loader(
              "n5",
              null,
              query("chk5", "qid-sns"),
              "cloudFiles.s3Endpoint",
              s3.endpoint().toString(),
              "cloudFiles.useSns",
              "true",
              "cloudFiles.snsEndpoint",
              sns.endpoint().toString(),
              "cloudFiles.resourceTag.team",
              "data");
      StreamExecutionEnvironment env = environment(false);
      CommittedRows out = new CommittedRows(dir.resolve("out5"));
      loader.stream(env).sinkTo(out.sink()).uid("out");
      JobID job = FLINK.submit(env);

      String name = NotificationResources.nameFor("qid-sns");
      CommittedRows.await(
          () -> s3.configuration(bucket).contains("<Id>" + name + "</Id>"),
          "the query to set up its topic and the bucket notification");
      String url = queueUrl(name);
      String topic = "arn:aws:sns:us-east-1:000000000000:" + name;
      assertThat(sns.topicArns()).containsExactly(topic);
      assertThat(sns.tags(topic))
          .containsEntry("team", "data")
          .containsEntry(NotificationResources.QUERY_ID_TAG, "qid-sns")
          .containsEntry(NotificationResources.INPUT_PATH_TAG, input("n5"));
      assertThat(sns.subscriptionCount(topic)).isEqualTo(1);
      String configuration = s3.configuration(bucket);
      assertThat(configuration)
          .contains("<Id>someone-else</Id>")
          .contains("<Topic>" + topic + "</Topic>")
          .doesNotContain("<Queue>")
          .contains("<Name>Prefix</Name><Value>landing/n5/</Value>");

      // another consumer fans out from the same topic, taking S3's events raw
      String fanOut = SQS.server().createQueue("fan-out-raw", VISIBILITY);
      String fanOutArn =
          SQS.server()
              .client()
              .getQueueAttributes(b -> b.queueUrl(fanOut).attributeNamesWithStrings("QueueArn"))
              .attributesAsStrings()
              .get("QueueArn");
      try (SnsClient client = snsClient(sns)) {
        client.subscribe(
            b ->
                b.topicArn(topic)
                    .protocol("sqs")
                    .endpoint(fanOutArn)
                    .attributes(Map.of("RawMessageDelivery", "true")));
      }

      // S3 now publishes the events of new files to the topic (one of them twice)
      List<String> keys = writeFiles(landing, 0, 5);
      for (String key : keys) {
        sns.publishFromS3(topic, bucket, objectCreated(bucket, "landing/n5/" + key, 100));
      }
      sns.publishFromS3(topic, bucket, objectCreated(bucket, "landing/n5/" + keys.get(2), 100));
      CommittedRows.await(() -> out.rows().size() >= 5 * ROWS_PER_FILE, "the rows of 5 files");
      CommittedRows.await(
          () -> SQS.server().messagesNotDeleted(url) == 0, "the messages to be deleted");
      FLINK.cluster().waitForMoreCheckpoints(job, 2, WAIT);
      FLINK.cluster().cancel(job, Duration.ofSeconds(60));
      assertExactlyOnce(out.rows(), 5);
      List<String> raw =
          SQS
              .server()
              .client()
              .receiveMessage(b -> b.queueUrl(fanOut).maxNumberOfMessages(10))
              .messages()
              .stream()
              .flatMap(m -> S3EventMessage.parse(m.body()).stream())
              .map(S3EventMessage.ObjectCreated::key)
              .collect(Collectors.toList());
      assertThat(raw)
          .as("S3's events, not SNS envelopes")
          .hasSize(6)
          .contains("landing/n5/" + keys.get(0));

      NotificationSettings settings = snsSettings(s3, sns);
      try (NotificationResources resources = new NotificationResources(settings)) {
        assertThat(resources.setUp("qid-sns", input("n5"))).as("a restart finds it").isEqualTo(url);
        assertThat(s3.configuration(bucket)).isEqualTo(configuration);
        assertThat(sns.topicArns()).containsExactly(topic);
        assertThat(sns.subscriptionCount(topic)).as("its queue's and the other one").isEqualTo(2);
        NotificationResources.Created created =
            resources.list().stream()
                .filter(c -> "qid-sns".equals(c.queryId()))
                .findFirst()
                .orElseThrow();
        assertThat(created.topicArn()).isEqualTo(topic);
        assertThat(created.queueUrl()).isEqualTo(url);
        resources.cleanUp(created);
      }
      assertThat(queueUrl(name)).isNull();
      assertThat(sns.topicArns()).isEmpty();
      assertThat(sns.subscriptionCount(topic)).isZero();
      assertThat(s3.configuration(bucket)).contains("<Id>someone-else</Id>").doesNotContain(name);
    }
  }

  /** SNS refusing the topic fails the set-up with the error class, the call and the options. */
  @Test
  void snsRefusingTheTopicFailsTheSetUpNamingTheOptions() throws Exception {
    try (BucketNotificationPeer s3 = new BucketNotificationPeer();
        SnsPeer sns = new SnsPeer(SQS.server().client());
        NotificationResources resources = new NotificationResources(snsSettings(s3, sns))) {
      sns.refuse("User lakestream is not authorized to perform SNS:CreateTopic");
      assertThatThrownBy(() -> resources.setUp("qid-refused", input("n6")))
          .isInstanceOf(LakestreamException.class)
          .hasMessageContaining("sns:CreateTopic")
          .hasMessageContaining("not authorized")
          .hasMessageContaining("cloudFiles.snsEndpoint")
          .hasMessageContaining("cloudFiles.useSns=false")
          .hasMessageNotContaining(SqsServer.SECRET_KEY)
          .extracting(e -> ((LakestreamException) e).errorClass())
          .isEqualTo(AutoLoaderErrorClass.NOTIFICATION_SETUP_FAILED.name());
      assertThat(s3.configuration(S3.bucket())).doesNotContain("qid-refused");
      SQS.server()
          .client()
          .deleteQueue(b -> b.queueUrl(queueUrl(NotificationResources.nameFor("qid-refused"))));
    }
  }

  private static SnsClient snsClient(SnsPeer sns) {
    return SnsClient.builder()
        .httpClientBuilder(UrlConnectionHttpClient.builder())
        .endpointOverride(sns.endpoint())
        .region(Region.of(SqsServer.REGION))
        .credentialsProvider(
            StaticCredentialsProvider.create(
                AwsBasicCredentials.create(SqsServer.ACCESS_KEY, SqsServer.SECRET_KEY)))
        .build();
  }

  private static NotificationSettings snsSettings(BucketNotificationPeer s3, SnsPeer sns) {
    return new NotificationSettings(
        null,
        SqsServer.REGION,
        SQS.server().endpoint().toString(),
        SqsServer.ACCESS_KEY,
        SqsServer.SECRET_KEY,
        0,
        s3.endpoint().toString(),
        true,
        sns.endpoint().toString(),
        Map.of());
  }

  private static String queueUrl(String name) {
    return SQS.server().client().listQueues(b -> b.queueNamePrefix(name)).queueUrls().stream()
        .filter(u -> u.endsWith("/" + name))
        .findFirst()
        .orElse(null);
  }

  private static NotificationSettings settings(BucketNotificationPeer s3) {
    return new NotificationSettings(
        null,
        SqsServer.REGION,
        SQS.server().endpoint().toString(),
        SqsServer.ACCESS_KEY,
        SqsServer.SECRET_KEY,
        0,
        s3.endpoint().toString(),
        false,
        null,
        Map.of());
  }

  /** Counts rows; fails once at the row {@link #FAIL_AT_ID}. */
  static final class FailOnce implements MapFunction<Row, Row>, CheckpointListener {
    @Override
    public Row map(Row row) {
      SEEN.incrementAndGet();
      if ((Long) row.getField(0) >= FAIL_AT_ID.get() && FAILED.compareAndSet(false, true)) {
        throw new IllegalStateException("injected failure at row " + row.getField(0));
      }
      return row;
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) {
      CHECKPOINTS.incrementAndGet();
    }
  }
}
