package io.lakestream.connectors.autoloader.source.enumerator;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.connectors.autoloader.discovery.FileLister;
import io.lakestream.connectors.autoloader.notification.NotificationSettings;
import io.lakestream.connectors.autoloader.notification.S3EventQueue;
import io.lakestream.connectors.autoloader.source.split.FileBatchSplit;
import io.lakestream.connectors.source.EpochPositions;
import io.lakestream.testkit.sqs.SqsServer;
import io.lakestream.testkit.sqs.SqsServerExtension;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.connector.source.ReaderInfo;
import org.apache.flink.api.connector.source.SplitsAssignment;
import org.apache.flink.api.connector.source.mocks.MockSplitEnumeratorContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The enumerator in file notification mode against a real SQS-API server (ElasticMQ), step by step:
 * files come from messages, not listings; a message is deleted only when a checkpoint taken after
 * it was received completes, not by an earlier one.
 */
class NotificationEnumeratorTest {
  @RegisterExtension static final SqsServerExtension SQS = new SqsServerExtension();

  @TempDir Path dir;

  private static String created(String key) {
    return "{\"Records\":[{\"eventName\":\"ObjectCreated:Put\",\"eventTime\":\""
        + Instant.now()
        + "\",\"s3\":{\"bucket\":{\"name\":\"landing\"},\"object\":{\"key\":\""
        + key
        + "\",\"size\":10}}}]}";
  }

  /** Runs queued async calls and their handlers; returns the keys assigned so far. */
  private static List<String> settle(MockSplitEnumeratorContext<FileBatchSplit> context)
      throws Throwable {
    int idle = 0;
    while (idle < 3) {
      context.getSentSourceEvent(); // runs what is queued in the coordinator thread
      if (context.getOneTimeCallables().isEmpty()) {
        idle++;
        Thread.sleep(30);
      } else {
        idle = 0;
        context.runNextOneTimeCallable();
      }
    }
    List<String> keys = new ArrayList<>();
    for (SplitsAssignment<FileBatchSplit> a : context.getSplitsAssignmentSequence()) {
      a.assignment()
          .values()
          .forEach(s -> s.forEach(split -> split.files().forEach(f -> keys.add(f.key))));
    }
    return keys;
  }

  @Test
  void messagesAreDeletedOnlyByACheckpointTakenAfterTheirReceipt() throws Throwable {
    SqsServer sqs = SQS.server();
    String queue = sqs.createQueue("enumerator", Duration.ofSeconds(30));
    sqs.send(queue, created("in/d%3D1/a.json"));
    sqs.send(queue, created("in/d%3D1/b.json"));
    sqs.send(queue, created("elsewhere/c.json"));
    S3EventQueue events =
        new S3EventQueue(
            new NotificationSettings(
                queue,
                SqsServer.REGION,
                SQS.endpoint().toString(),
                SqsServer.ACCESS_KEY,
                SqsServer.SECRET_KEY,
                0),
            "s3a://landing/in");
    MockSplitEnumeratorContext<FileBatchSplit> context = new MockSplitEnumeratorContext<>(1);
    context.registerReader(new ReaderInfo(0, "localhost"));
    FileDiscoveryEnumerator enumerator =
        FileDiscoveryEnumerator.notifications(
            context,
            DiscoveryState.initial(0), // includeExistingFiles=false: no initial listing
            new DiscoverySettings(100, 0, false, 7, 0, 0, -1, 1_000),
            FileLister.open(dir.toUri().toString(), Map.of()), // would fail on any listing of S3
            events,
            new EpochPositions(null, "files"),
            System::currentTimeMillis);
    enumerator.start();
    enumerator.handleSplitRequest(0, "localhost");
    assertThat(settle(context)).containsExactly("d=1/a.json", "d=1/b.json");

    DiscoveryState first = enumerator.snapshotState(1);
    assertThat(first.listingCalls()).isZero();
    sqs.send(queue, created("in/d%3D2/d.json")); // received after checkpoint 1
    enumerator.handleSplitRequest(0, "localhost");
    assertThat(settle(context)).containsExactly("d=1/a.json", "d=1/b.json", "d=2/d.json");
    assertThat(sqs.messagesNotDeleted(queue)).as("no checkpoint completed yet").isEqualTo(4);

    enumerator.snapshotState(2);
    enumerator.notifyCheckpointComplete(1);
    settle(context);
    assertThat(sqs.messagesNotDeleted(queue))
        .as("checkpoint 1 deletes the three messages received before it, not the fourth")
        .isEqualTo(1);
    enumerator.notifyCheckpointComplete(2);
    settle(context);
    assertThat(sqs.messagesNotDeleted(queue)).isZero();
    assertThat(enumerator.snapshotState(3).listingCalls()).isZero();
    enumerator.close();
  }
}
