package io.lakestream.bench.autoloader;

import io.lakestream.bench.ResourcePeaks;
import io.lakestream.connectors.autoloader.AutoLoaderBuilder;
import io.lakestream.testkit.flink.FlinkMiniCluster;
import io.lakestream.testkit.s3.S3Server;
import io.lakestream.testkit.sqs.S3EventNotifications;
import io.lakestream.testkit.sqs.SqsServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;

/**
 * Auto Loader in file notification mode ({@code cloudFiles.useNotifications=true}) draining a
 * backlog: {@code n} files are written under their own prefix and one S3 {@code ObjectCreated:Put}
 * event per file is sent to an SQS queue (ElasticMQ on loopback, as the S3 bucket notification
 * would send it; s3proxy sends none) before the job starts; the rate is {@code n} over the time
 * from job submission until every file's line has arrived, so it is the most files per second the
 * mode takes from a queue on this machine (job start included). No listing: {@code
 * includeExistingFiles} is false, and the LIST calls the counting proxy saw during the run are
 * reported. The run fails if a file is lost or read twice.
 */
final class NotificationRun {
  /** The result: files, seconds from submission to the last file, CPU of this JVM, LIST calls. */
  record Result(long files, double seconds, long cpuNanos, long lists, double publishSeconds) {
    double filesPerSecond() {
      return files / seconds;
    }
  }

  private final FlinkMiniCluster flink;
  private final S3Server s3;
  private final S3RequestCounter counter;
  private final Map<String, String> hadoopConf;
  private final int parallelism;
  private final long files;

  NotificationRun(
      FlinkMiniCluster flink,
      S3Server s3,
      S3RequestCounter counter,
      Map<String, String> hadoopConf,
      int parallelism,
      long landingFiles) {
    this.flink = flink;
    this.s3 = s3;
    this.counter = counter;
    this.hadoopConf = hadoopConf;
    this.parallelism = parallelism;
    this.files = Math.max(100, Math.min(20_000, landingFiles / 10));
  }

  Result run() throws Exception {
    try (SqsServer sqs = SqsServer.start();
        LandingFiles notified =
            new LandingFiles(s3.storageDirectory(), s3.bucket(), "notified", files, null)) {
      String queue = sqs.createQueue("autoloader-discovery", Duration.ofSeconds(30));
      StreamExecutionEnvironment env = flink.environment();
      env.setParallelism(parallelism);
      IdTally tally = new IdTally("notifications");
      // built first: without includeExistingFiles, files modified before the build are skipped
      AutoLoaderBuilder.forPath("s3a://" + s3.bucket() + "/notified")
          .name("notified-files")
          .hadoopConf(hadoopConf)
          .schema("id BIGINT, name STRING")
          .options(options(sqs, queue))
          .build()
          .stream(env)
          .map(row -> (Long) row.getField(0))
          .returns(Types.LONG)
          .uid("notified-ids")
          .addSink(tally)
          .uid("notified-tally");
      Thread.sleep(10); // file times (ms) strictly after the build's
      notified.write(0, files);
      long publishStart = System.nanoTime();
      publish(sqs, queue, notified);
      double publishSeconds = (System.nanoTime() - publishStart) / 1e9;
      long lists = counter.lists();
      ResourcePeaks peaks = ResourcePeaks.start();
      long start = System.nanoTime();
      JobID job = flink.submit(env);
      AutoLoaderDiscoveryBench.await(flink, job, tally::count, files, "notification mode");
      double seconds = (System.nanoTime() - start) / 1e9;
      long cpu = peaks.cpuNanos();
      flink.cancel(job, Duration.ofMinutes(2));
      tally.check(files);
      return new Result(files, seconds, cpu, counter.lists() - lists, publishSeconds);
    }
  }

  private static Map<String, String> options(SqsServer sqs, String queue) {
    Map<String, String> options = new TreeMap<>();
    options.put("cloudFiles.format", "json");
    options.put("cloudFiles.useNotifications", "true");
    options.put("cloudFiles.includeExistingFiles", "false");
    options.put("cloudFiles.queueUrl", queue);
    options.put("cloudFiles.region", SqsServer.REGION);
    options.put("cloudFiles.sqsEndpoint", sqs.endpoint().toString());
    options.put("cloudFiles.awsAccessKey", SqsServer.ACCESS_KEY);
    options.put("cloudFiles.awsSecretKey", SqsServer.SECRET_KEY);
    options.put("cloudFiles.maxFilesPerTrigger", "10000");
    return options;
  }

  /** One S3 event per file, ten messages per SendMessageBatch (SQS's most). */
  private void publish(SqsServer sqs, String queue, LandingFiles notified) {
    List<SendMessageBatchRequestEntry> batch = new ArrayList<>(10);
    for (long i = 0; i < files; i++) {
      String key = "notified/" + notified.key(i);
      batch.add(
          SendMessageBatchRequestEntry.builder()
              .id(Long.toString(i))
              .messageBody(S3EventNotifications.objectCreated(s3.bucket(), key, 40))
              .build());
      if (batch.size() == 10 || i == files - 1) {
        List<SendMessageBatchRequestEntry> entries = List.copyOf(batch);
        var response = sqs.client().sendMessageBatch(r -> r.queueUrl(queue).entries(entries));
        if (!response.failed().isEmpty()) {
          throw new IllegalStateException("SQS refused messages: " + response.failed());
        }
        batch.clear();
      }
    }
  }

  static String render(Result r) {
    return String.format(
            Locale.ROOT,
            "File notification mode (cloudFiles.useNotifications, ElasticMQ queue holding one S3"
                + " event per file, sent before the job starts in %.1f s; includeExistingFiles"
                + " false):%n%n",
            r.publishSeconds())
        + "| files | s from job submit to the last file | files/s | files/hour | CPU s (this JVM)"
        + " | S3 LIST |\n|---:|---:|---:|---:|---:|---:|\n"
        + String.format(
            Locale.ROOT,
            "| %,d | %.1f | %,.0f | %,.0f | %.1f | %,d |%n",
            r.files(),
            r.seconds(),
            r.filesPerSecond(),
            r.filesPerSecond() * 3600,
            r.cpuNanos() / 1e9,
            r.lists());
  }
}
