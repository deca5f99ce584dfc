package io.lakestream.pipelines.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.connectors.autoloader.notification.NotificationResources;
import io.lakestream.testkit.sqs.SqsServer;
import io.lakestream.testkit.sqs.SqsServerExtension;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code lakestream cloud-files resources} against a real SQS-API server (ElasticMQ): lists the
 * queues file notification mode set up (by name prefix and tags, not other queues), removes one
 * query's, and refuses options it does not know, naming the valid ones.
 */
class CloudFilesCommandTest {
  @RegisterExtension static final SqsServerExtension SQS = new SqsServerExtension();

  /** The exit code, a line break, and what the command printed. */
  private static String run(String... args) {
    PrintStream oldOut = System.out;
    PrintStream oldErr = System.err;
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    PrintStream capture = new PrintStream(printed, true, StandardCharsets.UTF_8);
    System.setOut(capture);
    System.setErr(capture);
    try {
      int code = LakestreamCli.execute(args);
      return code + "\n" + printed.toString(StandardCharsets.UTF_8);
    } finally {
      System.setOut(oldOut);
      System.setErr(oldErr);
    }
  }

  private static String[] with(String... args) {
    String[] all = new String[args.length + 8];
    System.arraycopy(args, 0, all, 0, args.length);
    int i = args.length;
    all[i++] = "-o";
    all[i++] = "cloudFiles.region=" + SqsServer.REGION;
    all[i++] = "-o";
    all[i++] = "cloudFiles.sqsEndpoint=" + SQS.server().endpoint();
    all[i++] = "-o";
    all[i++] = "cloudFiles.awsAccessKey=" + SqsServer.ACCESS_KEY;
    all[i++] = "-o";
    all[i] = "CLOUDFILES.AWSSECRETKEY=" + SqsServer.SECRET_KEY;
    return all;
  }

  private static String queue(String queryId) {
    String name = NotificationResources.nameFor(queryId);
    return SQS.server()
        .client()
        .createQueue(
            b -> b.queueName(name).tags(Map.of(NotificationResources.QUERY_ID_TAG, queryId)))
        .queueUrl();
  }

  @Test
  void listsAndRemovesWhatQueriesSetUp() {
    String a = queue("query-a");
    String b = queue("query-b");
    SQS.server().client().createQueue(r -> r.queueName("not-ours"));
    String topic = "arn:aws:sns:us-east-1:1:" + NotificationResources.nameFor("query-b");
    SQS.server()
        .client()
        .tagQueue(r -> r.queueUrl(b).tags(Map.of(NotificationResources.TOPIC_ARN_TAG, topic)));

    String listed = run(with("cloud-files", "resources", "--list"));
    assertThat(listed).startsWith("0\n").contains(a).contains(b).contains("2 set-ups found");
    assertThat(listed).contains("query query-b  input null  topic " + topic);
    assertThat(listed).doesNotContain("not-ours").doesNotContain(SqsServer.SECRET_KEY);

    String removed = run(with("cloud-files", "resources", "--cleanup", "--query-id", "query-a"));
    assertThat(removed).startsWith("0\n").contains("removed " + a).contains("1 set-up removed");
    assertThat(SQS.server().client().listQueues().queueUrls())
        .doesNotContain(a)
        .contains(b)
        .anyMatch(u -> u.endsWith("/not-ours"));
  }

  @Test
  void refusesUnknownOptionsAndAMissingRegion() {
    assertThat(run("cloud-files", "resources", "--list", "-o", "cloudFiles.queueUrl=x"))
        .contains("-o cloudFiles.queueUrl is not an option of cloud-files resources; valid:")
        .contains("cloudFiles.s3Endpoint")
        .contains("cloudFiles.snsEndpoint");
    assertThat(run("cloud-files", "resources", "--list"))
        .contains("needs -o cloudFiles.region=<region>");
    assertThat(run("cloud-files", "resources")).startsWith("2\n");
  }
}
